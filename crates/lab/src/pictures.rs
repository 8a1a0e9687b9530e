//! What katro draws: the HTML report and its charts (`report`), the board
//! as SVG (`board_svg`), the game viewer (`viewer`), the strength curve
//! (`strength_curve`) and the proved family's grid (`proved_grid`).

pub mod board_svg;
pub mod proved_grid;
pub mod report;
pub mod strength_curve;
pub mod viewer;

pub use report::ReportError;

/// The axis of a first player's share holding every value from `lo` to
/// `hi` and 50%, the reference: padded by a tenth of that span (at least
/// 2 points a side) and rounded out to whole 5 points, so that 48.9% and
/// 51.7% sit apart rather than in the middle 3% of a 0–100% axis. The
/// whole 0–100% only when the span passes 60 points anyway.
pub(crate) fn share_span(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let (lo, hi) = (lo.min(0.5), hi.max(0.5));
    let pad = ((hi - lo) / 10.0).max(0.02);
    let lo = ((lo - pad) * 20.0).floor() / 20.0;
    let hi = ((hi + pad) * 20.0).ceil() / 20.0;
    if hi - lo > 0.6 {
        0.0..1.0
    } else {
        lo.max(0.0)..hi.min(1.0)
    }
}
pub use viewer::ReplayError;
