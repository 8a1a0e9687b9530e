//! What katro draws: the HTML report and its charts (`report`), the board
//! as SVG (`board_svg`) and the game viewer (`viewer`).

pub mod board_svg;
pub mod report;
pub mod strength_curve;
pub mod viewer;

pub use report::ReportError;
pub use viewer::ReplayError;
