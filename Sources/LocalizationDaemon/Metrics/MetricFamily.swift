/// One metric as the `metrics` op exposes it: a name, its help, its type and its samples.
///
/// ```swift
/// MetricFamily.counter("l10nd_rescans_total", "Full rescans since start.", value: 3)
/// ```
public struct MetricFamily: Sendable, Hashable {
    /// The metric types l10nd uses.
    public enum Kind: String, Sendable, Hashable {
        case counter, gauge, histogram
    }

    /// One line of a family: `name` + `suffix`, its labels, its value.
    public struct Sample: Sendable, Hashable {
        /// Appended to the family's name (`_bucket`, `_sum`, `_count`; empty otherwise).
        public var suffix: String
        /// Label names and values, in the order written.
        public var labels: [Label]
        /// The value.
        public var value: Double

        /// Creates a sample.
        public init(suffix: String = "", labels: [Label] = [], value: Double) {
            self.suffix = suffix
            self.labels = labels
            self.value = value
        }
    }

    /// A label's name and value.
    public struct Label: Sendable, Hashable {
        /// The label's name (`[a-zA-Z_][a-zA-Z0-9_]*`).
        public var name: String
        /// Its value, any text.
        public var value: String

        /// Creates a label.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The name, following Prometheus' conventions: `l10nd_` prefix, base units
    /// (`_seconds`), counters ending in `_total`.
    public var name: String
    /// One line saying what it counts.
    public var help: String
    /// Its type.
    public var kind: Kind
    /// Its samples.
    public var samples: [Sample]

    /// Creates a family.
    public init(name: String, help: String, kind: Kind, samples: [Sample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }

    /// A counter with one unlabelled value.
    public static func counter(_ name: String, _ help: String, value: Int) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: .counter, samples: [Sample(value: Double(value))])
    }

    /// A gauge with one unlabelled value.
    public static func gauge(_ name: String, _ help: String, value: Double) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: .gauge, samples: [Sample(value: value)])
    }

    /// A histogram with one series per label set: `_bucket{le=…}` per bound and `+Inf`,
    /// `_sum` and `_count`.
    public static func histogram(
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
