//! Reading class files into the engine's model.
pub mod aidl;
pub mod descriptor;
pub mod direct_executor;
pub mod handler_executor;
pub mod handler_subclass;
pub mod inline_lines;
pub mod kotlin_metadata;
pub mod lower;
pub mod model;
