/// One metric as the `metrics` op exposes it: a name, its help, its type and its samples.
///
/// ```swift
/// MetricFamily.counter("l10nd_rescans_total", "Full rescans since start.", value: 3)
/// ```
package struct MetricFamily: Sendable, Hashable {
    /// The metric types l10nd uses.
    package enum Kind: String, Sendable, Hashable {
        case counter, gauge, histogram
    }

    /// One line of a family: `name` + `suffix`, its labels, its value.
    package struct Sample: Sendable, Hashable {
        /// Appended to the family's name (`_bucket`, `_sum`, `_count`; empty otherwise).
        package var suffix: String
        /// Label names and values, in the order written.
        package var labels: [Label]
        /// The value.
        package var value: Double

        /// Creates a sample.
        package init(suffix: String = "", labels: [Label] = [], value: Double) {
            self.suffix = suffix
            self.labels = labels
            self.value = value
        }
    }

    /// A label's name and value.
    package struct Label: Sendable, Hashable {
        /// The label's name (`[a-zA-Z_][a-zA-Z0-9_]*`).
        package var name: String
        /// Its value, any text.
        package var value: String

        /// Creates a label.
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The name, following Prometheus' conventions: `l10nd_` prefix, base units
    /// (`_seconds`), counters ending in `_total`.
    package var name: String
    /// One line saying what it counts.
    package var help: String
    /// Its type.
    package var kind: Kind
    /// Its samples.
    package var samples: [Sample]

    /// Creates a family.
    package init(name: String, help: String, kind: Kind, samples: [Sample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }

    /// A counter with one unlabelled value.
    package static func counter(_ name: String, _ help: String, value: Int) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: .counter, samples: [Sample(value: Double(value))])
    }

    /// A gauge with one unlabelled value.
    package static func gauge(_ name: String, _ help: String, value: Double) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: .gauge, samples: [Sample(value: value)])
    }

    /// A histogram with one series per label set: `_bucket{le=…}` per bound and `+Inf`,
    /// `_sum` and `_count`.
    package static func histogram(
        _ name: String, _ help: String, series: [(labels: [Label], snapshot: DurationHistogram.Snapshot)]
    ) -> MetricFamily {
        var samples: [Sample] = []
        for (labels, snapshot) in series {
            let upperBounds = snapshot.bounds.map(OpenMetricsText.number) + ["+Inf"]
            for (bound, count) in zip(upperBounds, snapshot.cumulativeCounts) {
                samples.append(Sample(suffix: "_bucket", labels: labels + [Label("le", bound)], value: Double(count)))
            }
            samples.append(Sample(suffix: "_sum", labels: labels, value: snapshot.sumSeconds))
            samples.append(Sample(suffix: "_count", labels: labels, value: Double(snapshot.count)))
        }
        return MetricFamily(name: name, help: help, kind: .histogram, samples: samples)
    }
}
