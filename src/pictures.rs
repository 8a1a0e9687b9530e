//! What katro draws: the HTML report and its charts (`report`), the board
//! as SVG (`board_svg`), the game viewer (`viewer`), the strength curve
//! (`strength_curve`) and the proved family's grid (`proved_grid`).

pub mod board_svg;
pub mod proved_grid;
pub mod report;
pub mod strength_curve;
pub mod viewer;

pub use report::ReportError;
pub use viewer::ReplayError;
