//! Per-run state shared between the native functions, the module loader and the event
//! loop. The guest is single-threaded, and every run builds a fresh `RunState`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use rquickjs::{Ctx, Object, Persistent, Value};

use crate::timers::Timers;

/// A rejected promise nobody handled yet, and its reason.
pub type Rejection = (Persistent<Value<'static>>, Persistent<Value<'static>>);

pub struct RunState {
    /// The JS-visible current directory (`process.cwd()`), always absolute.
    pub cwd: RefCell<String>,
    /// Set by `process.exit(n)` (or a fatal error): once set, no more JS may run.
    pub exit_code: Cell<Option<i32>>,
    pub timers: RefCell<Timers>,
    /// `ws:` modules loaded so far, with the JS names they export, to explain a failed
    /// named import.
    pub ws_exports: RefCell<HashMap<String, Vec<String>>>,
    /// Whether stdin reached its end (it can be read once).
    pub stdin_done: Cell<bool>,
    /// xorshift state for `Math.random`, seeded from `wasi:random` on first use.
    pub random_state: Cell<Option<u64>>,
    /// Rejections without a handler, in order; checked after each macrotask.
    pub rejections: RefCell<Vec<Rejection>>,
    /// What `bootstrap.js` returned: `require`, `formatUncaught`, `wsFunction`, ...
    pub internal: RefCell<Option<Persistent<Object<'static>>>>,
    /// Whether this run is Node's command line (`node`, `npm`) rather than the js
    /// backend: `.js` files then follow package.json's "type" strictly, as in Node 20.
    pub node_mode: Cell<bool>,
    /// `process.nextTick` queued callbacks that `internal.runTicks` has not run yet.
    pub ticks_pending: Cell<bool>,
}

pub type Shared = Rc<RunState>;

impl RunState {
    pub fn new(cwd: String) -> Shared {
        Rc::new(RunState {
            cwd: RefCell::new(cwd),
            exit_code: Cell::new(None),
            timers: RefCell::new(Timers::default()),
            ws_exports: RefCell::new(HashMap::new()),
            stdin_done: Cell::new(false),
            random_state: Cell::new(None),
            rejections: RefCell::new(Vec::new()),
            internal: RefCell::new(None),
            node_mode: Cell::new(false),
            ticks_pending: Cell::new(false),
        })
    }

    pub fn exiting(&self) -> bool {
        self.exit_code.get().is_some()
    }

    /// Request the end of the run; the first request wins.
    pub fn request_exit(&self, code: i32) {
        if self.exit_code.get().is_none() {
            self.exit_code.set(Some(code));
        }
    }

    pub fn cwd(&self) -> String {
        self.cwd.borrow().clone()
    }
}

impl RunState {
    /// The bootstrap's internal object.
    pub fn internal<'js>(&self, ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
        match self.internal.borrow().as_ref() {
            Some(p) => p.clone().restore(ctx),
            None => Err(rquickjs::Error::new_from_js("undefined", "internal object")),
        }
    }

    /// Drop every JS value held from Rust, before the runtime is freed.
    pub fn release_js(&self) {
        self.timers.borrow_mut().clear();
        self.rejections.borrow_mut().clear();
        self.internal.borrow_mut().take();
    }
}
