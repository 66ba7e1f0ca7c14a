//! Reading class files into the engine's model.
pub mod aidl;
pub mod descriptor;
pub mod handler_executor;
pub mod lower;
pub mod model;
