//! `survey --plot FILE.svg`: each robot's categories month by month, as stacked shares
//! of the sites seen that month (each site's last capture in it), one panel a robot.

use std::collections::BTreeMap;
use std::path::Path;

use color_eyre::eyre::{Result, bail, eyre};
use plotters::prelude::*;

use crate::policy::escape::sanitize_str;
use crate::survey::Category;
use crate::words::plural;

/// Each category's colour, strictest first as [`Category::ALL`] lists them: reds for
/// what keeps robots out, greens for what lets them in, greys for what decides nothing.
const COLOURS: [RGBColor; 6] = [
    RGBColor(200, 40, 40),
    RGBColor(240, 150, 60),
    RGBColor(90, 170, 90),
    RGBColor(170, 215, 160),
    RGBColor(150, 150, 150),
    RGBColor(200, 200, 230),
];

/// A panel's size in pixels.
const PANEL: (u32, u32) = (600, 320);

/// Fails now, before the survey runs, when `path` cannot be the chart: it must be
/// `.svg` (the only format drawn), in a directory that can be written to.
pub fn check_path(path: &Path) -> Result<()> {
    let label = sanitize_str(&path.display().to_string()).into_owned();
    if !path.extension().is_some_and(|extension| extension.eq_ignore_ascii_case("svg")) {
        bail!("--plot {label}: the chart is SVG; name the file .svg");
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| eyre!("--plot {label}: cannot write it: {error}"))?;
    Ok(())
}

/// Each month's number of sites, and each robot's count of them in each category (each
/// site counted with its weight), as each site's last capture in the month gives them.
#[derive(Debug, Default)]
pub struct Months {
    counts: BTreeMap<String, (usize, Vec<[f64; 6]>)>,
}

impl Months {
    /// Counts a site's last capture in `month`: each robot's category, `weight` times.
    pub fn add(&mut self, month: &str, categories: &[Category], weight: f64) {
        if !self.counts.contains_key(month) {
            self.counts.insert(month.to_owned(), (0, vec![[0.0; 6]; categories.len()]));
        }
        if let Some((sites, tallies)) = self.counts.get_mut(month) {
            *sites += 1;
            for (tally, category) in tallies.iter_mut().zip(categories) {
                tally[category.index()] += weight;
            }
        }
    }

    /// Every month from the first to the last, those with no capture empty, so that the
    /// time axis is even: a gap of two years is not drawn as one month.
    fn fill_gaps(&mut self, robots: usize) {
        let month = |label: &str| -> Option<i32> {
            let (year, month) = label.split_once('-')?;
            let (year, month) = (year.parse::<i32>().ok()?, month.parse::<i32>().ok()?);
            (label.len() == 7 && (1..=12).contains(&month)).then(|| year * 12 + month - 1)
        };
        let numbers: Option<Vec<i32>> = self.counts.keys().map(|label| month(label)).collect();
        let (Some(&first), Some(&last)) =
            (numbers.as_ref().and_then(|n| n.first()), numbers.as_ref().and_then(|n| n.last()))
        else {
            return;
        };
        for number in first..=last.min(first + 1200) {
            let label = format!("{:04}-{:02}", number.div_euclid(12), number.rem_euclid(12) + 1);
            self.counts.entry(label).or_insert_with(|| (0, vec![[0.0; 6]; robots]));
        }
    }
}

/// The months' labels, each month's number of sites, and each month's share (percent)
/// of sites in each category for each robot: `shares[robot][month][category]`.
type Shares = (Vec<String>, Vec<usize>, Vec<Vec<[f64; 6]>>);

fn shares(robots: usize, months: &mut Months) -> Shares {
    months.fill_gaps(robots);
    let labels: Vec<String> = months.counts.keys().cloned().collect();
    let sites: Vec<usize> = months.counts.values().map(|(sites, _)| *sites).collect();
    let mut shares = vec![Vec::with_capacity(labels.len()); robots];
    for (_, tallies) in months.counts.values() {
        for (robot, tally) in tallies.iter().enumerate().take(robots) {
            let total: f64 = tally.iter().sum();
            shares[robot].push(tally.map(|count| if total > 0.0 { 100.0 * count / total } else { 0.0 }));
        }
    }
    (labels, sites, shares)
}

/// Draws the chart into `path`.
pub fn draw(path: &Path, agents: &[String], mut months: Months) -> Result<()> {
    let failed = |error: &dyn std::fmt::Display| {
        eyre!("drawing {}: {}", sanitize_str(&path.display().to_string()), sanitize_str(&error.to_string()))
    };
    let (labels, sites, shares) = shares(agents.len(), &mut months);
    let columns = if agents.len() > 1 { 2 } else { 1 };
    let rows = agents.len().div_ceil(columns).max(1);
    let size = (PANEL.0 * columns as u32, PANEL.1 * rows as u32 + 64);
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|error| failed(&error))?;
    let (legend, panels) = root.split_vertically(64);
    let (fewest, most) = (sites.iter().min().copied().unwrap_or(0), sites.iter().max().copied().unwrap_or(0));
    let title = match (labels.first(), labels.last()) {
        (Some(first), Some(last)) if fewest == most => {
            format!("Share of sites by category, {first} to {last}: {} a month", plural(most, "site"))
        }
        (Some(first), Some(last)) => {
            format!("Share of sites by category, {first} to {last}: {fewest} to {most} sites a month")
        }
        _ => "No capture to draw".to_owned(),
    };
    draw_legend(&legend, &title).map_err(|error| failed(&error))?;
    let count = i32::try_from(labels.len()).unwrap_or(i32::MAX);
    // Each month is a step, from its start to the next month's: a category's share
    // holds until a capture changes it.
    let (drawn, count) = (count, count.max(1));
    for (index, panel) in panels.split_evenly((rows, columns)).iter().enumerate().take(agents.len()) {
        let mut chart = ChartBuilder::on(panel)
            .caption(sanitize_str(&agents[index]), ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(44)
            .build_cartesian_2d(0..count, 0.0..100.0)
            .map_err(|error| failed(&error))?;
        let month_label = |x: &i32| usize::try_from(*x).ok().and_then(|x| labels.get(x)).cloned().unwrap_or_default();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(labels.len().clamp(2, 7))
            .y_desc("share of sites")
            .x_label_formatter(&month_label)
            .y_label_formatter(&|y| format!("{y:.0}%"))
            .draw()
            .map_err(|error| failed(&error))?;
        // Stacked: each category's band is drawn from 0 up to its running total, the
        // widest first, so that each narrower one covers the bottom of it.
        for category in (0..Category::ALL.len()).rev() {
            let top = |month: i32| -> f64 {
                let month = usize::try_from(month).unwrap_or_default();
                shares[index][month][..=category].iter().sum()
            };
            // No month (no capture at all) draws empty panels.
            let points: Vec<(i32, f64)> =
                (0..drawn).flat_map(|month| [(month, top(month)), (month + 1, top(month))]).collect();
            chart
                .draw_series(AreaSeries::new(points, 0.0, COLOURS[category].filled()))
                .map_err(|error| failed(&error))?;
        }
    }
    root.present().map_err(|error| failed(&error))?;
    Ok(())
}

/// The title, and the categories' names in their colours, across the top.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.draw(&Text::new(title.to_owned(), (12, 8), ("sans-serif", 18)))?;
    for ((category, colour), x) in Category::ALL.iter().zip(COLOURS).zip((12..).step_by(96)) {
        area.draw(&Rectangle::new([(x, 38), (x + 14, 52)], colour.filled()))?;
        area.draw(&Text::new(category.name(), (x + 20, 38), ("sans-serif", 14)))?;
    }
    Ok(())
}
