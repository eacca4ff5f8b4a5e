//! Entry points for the fuzz targets (`fuzz/`), compiled only with `--cfg fuzzing`.

pub use crate::webhook::fuzzing::admission_answer;
