//! Reading class files into the engine's model.
pub mod descriptor;
pub mod lower;
pub mod model;
