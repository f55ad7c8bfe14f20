// ffi.rs: a Rust program calling libl10nd through plain `extern "C"` (no crates), built by
// CLibraryTests with `rustc ffi.rs -L BUILD -l l10nd`. Looks one key up in each language named
// on the command line and prints `lang=value`, then a finished string.
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_double, c_int, c_longlong};
use std::ptr;

#[repr(C)]
struct Error {
    code: c_int,
    message: [c_char; 512],
}

#[repr(C)]
struct Arg {
    kind: c_int, // l10nd_arg_type: 0 string, 1 integer, 2 double
    string: *const c_char,
    integer: c_longlong,
    number: c_double,
}

#[repr(C)]
struct Query {
    key: *const c_char,
    table: *const c_char,
    languages: *const *const c_char,
    language_count: usize,
    count: *const c_char,
    args: *const Arg,
    arg_count: usize,
}

#[repr(C)]
struct Answer {
    value: *mut c_char,
    found: c_int,
    lang: *mut c_char,
    formatted: *mut c_char,
    generation: c_longlong,
}

enum Client {}

#[link(name = "l10nd")]
extern "C" {
    fn l10nd_open(path: *const c_char, timeout_ms: c_int, err: *mut Error) -> *mut Client;
    fn l10nd_close(client: *mut Client);
    fn l10nd_lookup(client: *mut Client, query: *const Query, result: *mut Answer, err: *mut Error) -> c_int;
    fn l10nd_result_free(result: *mut Answer);
}

fn text(p: *const c_char) -> String {
    if p.is_null() { "-".into() } else { unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() }
}

fn lookup(client: *mut Client, key: &str, lang: &str, args: &[Arg]) -> Result<(String, String), String> {
    let key = CString::new(key).unwrap();
    let lang = CString::new(lang).unwrap();
    let langs = [lang.as_ptr()];
    let query = Query {
        key: key.as_ptr(), table: ptr::null(), languages: langs.as_ptr(), language_count: 1,
        count: ptr::null(), args: args.as_ptr(), arg_count: args.len(),
    };
    let mut answer = Answer { value: ptr::null_mut(), found: 0, lang: ptr::null_mut(), formatted: ptr::null_mut(), generation: 0 };
    let mut err = Error { code: 0, message: [0; 512] };
    if unsafe { l10nd_lookup(client, &query, &mut answer, &mut err) } != 0 {
        return Err(text(err.message.as_ptr()));
    }
    let result = (text(answer.value), text(answer.formatted));
    unsafe { l10nd_result_free(&mut answer) };
    Ok(result)
}

fn main() {
    let mut err = Error { code: 0, message: [0; 512] };
    let client = unsafe { l10nd_open(ptr::null(), 5000, &mut err) };
    if client.is_null() {
        eprintln!("l10nd: {}", text(err.message.as_ptr()));
        std::process::exit(1);
    }
    let mut status = 0;
    for lang in std::env::args().skip(1) {
        match lookup(client, "こんにちは", &lang, &[]) {
            Ok((value, _)) => println!("{}={}", lang, value),
            Err(message) => { eprintln!("l10nd: {}", message); status = 1; }
        }
    }
    let ana = CString::new("Ana").unwrap();
    let args = [Arg { kind: 0, string: ana.as_ptr(), integer: 0, number: 0.0 }, Arg { kind: 1, string: ptr::null(), integer: 3, number: 0.0 }];
    match lookup(client, "%1$@ has %2$d new messages", "ja", &args) {
        Ok((_, formatted)) => println!("{}", formatted),
        Err(message) => { eprintln!("l10nd: {}", message); status = 1; }
    }
    unsafe { l10nd_close(client) };
    std::process::exit(status);
}
