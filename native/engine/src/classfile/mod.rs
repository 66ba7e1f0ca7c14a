//! Reading class files into the engine's model.
pub mod aidl;
pub mod descriptor;
pub mod lower;
pub mod model;
