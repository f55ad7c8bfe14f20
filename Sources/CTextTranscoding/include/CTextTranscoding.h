// What LocalizationCore imports: the UTF-16 transcoder, the UTF-8 check and the scanner's
// byte search.
#include "byte_search.h"
#include "utf16_to_utf8.h"
#include "utf8_validation.h"
