//! The explorer's panes and the order Tab moves through them.

/// A pane of the explorer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pane {
    /// The robot switcher.
    Robots,
    /// The file, numbered and highlighted.
    #[default]
    Source,
    /// Groups per agent, sitemaps, extension fields.
    Records,
    /// The path input and the verdict.
    Tester,
}

impl Pane {
    /// All panes in Tab order.
    pub const ALL: [Pane; 4] = [Pane::Robots, Pane::Source, Pane::Records, Pane::Tester];

    /// The pane after this one (Tab).
    #[must_use]
    pub fn next(self) -> Pane {
        let at = Pane::ALL.iter().position(|&p| p == self).unwrap_or(0);
        Pane::ALL[(at + 1) % Pane::ALL.len()]
    }

    /// The pane before this one (Shift-Tab).
    #[must_use]
    pub fn prev(self) -> Pane {
        let at = Pane::ALL.iter().position(|&p| p == self).unwrap_or(0);
        Pane::ALL[(at + Pane::ALL.len() - 1) % Pane::ALL.len()]
    }

    /// The pane's title.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Pane::Robots => "Robots",
            Pane::Source => "Source",
            Pane::Records => "Records",
            Pane::Tester => "Tester",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_order_wraps_both_ways() {
        for pane in Pane::ALL {
            assert_eq!(pane.next().prev(), pane);
        }
        assert_eq!(Pane::Tester.next(), Pane::Robots);
    }
}
