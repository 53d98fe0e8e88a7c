//! git's children (c/run_command.c) as workspace commands: a handle per
//! running `invocation`, with the bytes of its last event kept until the
//! next call, for the C side to copy.

use std::cell::RefCell;
use std::ffi::{CStr, c_char, c_int};

use crate::computer::workspace::commands::{Event, Invocation, InvocationRequest, StartError};

struct Child {
    invocation: Invocation,
    last: Vec<u8>,
}

thread_local! {
    static CHILDREN: RefCell<Vec<Option<Child>>> = const { RefCell::new(Vec::new()) };
    static WHY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

unsafe fn string(p: *const c_char) -> String {
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

unsafe fn strings(p: *const *const c_char, n: usize) -> Vec<String> {
    (0..n).map(|i| unsafe { string(*p.add(i)) }).collect()
}

/// Starts `name`; its handle (>= 0), -1 when there is no such command, -2
/// when it could not start (`why` then says why, until the next call).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn computer_git_spawn(
    name: *const c_char,
    argv: *const *const c_char,
    argc: usize,
    env: *const *const c_char,
    envc: usize,
    cwd: *const c_char,
    why: *mut *const c_char,
) -> c_int {
    let request = unsafe {
        InvocationRequest {
            name: string(name),
            argv: strings(argv, argc),
            env: strings(env, envc)
                .into_iter()
                .filter_map(|e| e.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
                .collect(),
            cwd: string(cwd),
        }
    };
    match Invocation::start(&request) {
        Ok(invocation) => CHILDREN.with_borrow_mut(|all| {
            let child = Some(Child {
                invocation,
                last: Vec::new(),
            });
            match all.iter().position(Option::is_none) {
                Some(i) => {
                    all[i] = child;
                    i as c_int
                }
                None => {
                    all.push(child);
                    (all.len() - 1) as c_int
                }
            }
        }),
        Err(StartError::NotFound) => -1,
        Err(e) => {
            let text = match e {
                StartError::TooDeep(n) => format!("commands nested deeper than {n}"),
                StartError::Failed(why) => why,
                StartError::NotFound => unreachable!(),
            };
            WHY.with_borrow_mut(|w| {
                *w = text.into_bytes();
                w.retain(|b| *b != 0);
                w.push(0);
                unsafe { *why = w.as_ptr().cast() };
            });
            -2
        }
    }
}

/// Runs child `id` to its next event: 0 stdout, 1 stderr (bytes in
/// `data`/`len`), 2 it wants input, 3 it exited (its code in `len`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn computer_git_next(
    id: c_int,
    data: *mut *const u8,
    len: *mut usize,
) -> c_int {
    CHILDREN.with_borrow_mut(|all| {
        let Some(Some(child)) = all.get_mut(id as usize) else {
            unsafe { *len = 126 };
            return 3;
        };
        let (kind, bytes, code) = match child.invocation.next() {
            Event::Stdout(b) => (0, b, 0),
            Event::Stderr(b) => (1, b, 0),
            Event::StdinWanted => (2, Vec::new(), 0),
            Event::Exited(code) => (3, Vec::new(), code),
        };
        child.last = bytes;
        unsafe {
            *data = child.last.as_ptr();
            *len = if kind == 3 {
                code as usize
            } else {
                child.last.len()
            };
        }
        kind
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn computer_git_feed(id: c_int, data: *const u8, len: usize) {
    let bytes = if len == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, len) }
    };
    CHILDREN.with_borrow(|all| {
        if let Some(Some(child)) = all.get(id as usize) {
            child.invocation.feed(bytes);
        }
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn computer_git_drop(id: c_int) {
    let child = CHILDREN.with_borrow_mut(|all| all.get_mut(id as usize).and_then(Option::take));
    drop(child);
}

/// Whether the workspace has a command `name` (git's `exists_in_PATH`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn computer_git_has_command(name: *const c_char) -> c_int {
    let name = unsafe { string(name) };
    let found = crate::computer::workspace::commands::list_commands()
        .iter()
        .any(|c| c.name == name)
        || name == "sh"
        || name == "bash";
    found as c_int
}
