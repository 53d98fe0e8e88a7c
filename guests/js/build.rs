//! Compile the embedded JS (src/js/*.js) to QuickJS bytecode at build time, with a
//! native QuickJS of the same version as the guest's. Parsing that JS inside the guest
//! would cost about 1 ms per run; reading bytecode costs a few microseconds.

use std::ffi::CString;
use std::path::PathBuf;
use std::{env, fs};

use rquickjs::{Context, Runtime, qjs};

#[path = "src/wrap.rs"]
mod wrap;

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let rt = Runtime::new().expect("QuickJS runtime");
    let ctx = Context::full(&rt).expect("QuickJS context");
    ctx.with(|ctx| {
        for name in wrap::FILES {
            let path = format!("src/js/{name}.js");
            println!("cargo:rerun-if-changed={path}");
            let body = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let source = CString::new(wrap::wrap(name, &body)).expect("NUL in JS source");
            let filename = CString::new(wrap::filename(name)).expect("NUL in name");
            let raw = ctx.as_raw().as_ptr();
            // SAFETY: plain FFI on a live context; every value is freed below.
            unsafe {
                let flags = qjs::JS_EVAL_TYPE_GLOBAL
                    | qjs::JS_EVAL_FLAG_STRICT
                    | qjs::JS_EVAL_FLAG_COMPILE_ONLY;
                let func = qjs::JS_Eval(
                    raw,
                    source.as_ptr(),
                    source.as_bytes().len() as _,
                    filename.as_ptr(),
                    flags as i32,
                );
                if qjs::JS_VALUE_GET_TAG(func) == qjs::JS_TAG_EXCEPTION {
                    let err = ctx.catch();
                    let message: String = err
                        .as_exception()
                        .and_then(|e| e.message())
                        .unwrap_or_default();
                    let stack: String = err
                        .as_exception()
                        .and_then(|e| e.stack())
                        .unwrap_or_default();
                    panic!("{path}: {message}\n{stack}");
                }
                let mut size = 0;
                let flags = qjs::JS_WRITE_OBJ_BYTECODE | qjs::JS_WRITE_OBJ_STRIP_SOURCE;
                let bytes = qjs::JS_WriteObject(raw, &mut size, func, flags as i32);
                assert!(!bytes.is_null(), "{path}: could not write bytecode");
                let data = std::slice::from_raw_parts(bytes, size as usize).to_vec();
                qjs::js_free(raw, bytes as *mut _);
                qjs::JS_FreeValue(raw, func);
                fs::write(out.join(format!("{name}.qbc")), data).expect("write bytecode");
            }
        }
    });
    // The table `builtins.rs` includes, so that a new file is named once (wrap::FILES).
    let table: String = wrap::FILES
        .iter()
        .map(|name| {
            format!(
                "    ({name:?}, include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}.qbc\"))),\n"
            )
        })
        .collect();
    fs::write(out.join("bytecode.rs"), format!("&[\n{table}]\n")).expect("write bytecode table");
    println!("cargo:rerun-if-changed=src/wrap.rs");
}
