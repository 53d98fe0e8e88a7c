pub(crate) mod async_module;
pub(crate) mod call_context;
pub(crate) mod component;
pub(crate) mod component_json;
pub(crate) mod http;
