pub(crate) mod builtin;
