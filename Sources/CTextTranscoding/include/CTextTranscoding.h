// What LocalizationCore imports: the UTF-16 transcoder and the UTF-8 check.
#include "utf16_to_utf8.h"
#include "utf8_validation.h"
