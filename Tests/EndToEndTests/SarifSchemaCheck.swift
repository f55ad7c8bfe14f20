import Foundation
import TestSupport
import Testing

/// Checks a SARIF log against the OASIS SARIF 2.1.0 schema where `../shared/schemas` has it
/// and python3's jsonschema is installed; says why it skipped otherwise.
enum SarifSchemaCheck {
    static func validate(_ sarif: String) throws {
        guard let schema = PackagePaths.shared("schemas/sarif-schema-2.1.0.json") else {
            print("skipped the schema check: ../shared/schemas/sarif-schema-2.1.0.json is absent")
            return
        }
        let probe = try ProcessRunner.run("/usr/bin/python3", ["-c", "import jsonschema"])
        guard probe.status == 0 else {
            print("skipped the schema check: python3 jsonschema is not installed (scripts/install-dependencies)")
            return
        }
        let directory = try TemporaryDirectory()
        let file = try directory.write(sarif, to: "lint.sarif")
        let check = try ProcessRunner.run(
            "/usr/bin/python3",
            [
                "-c",
                "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1]))); print('valid')",
                schema, file,
            ])
        #expect(check.status == 0 && check.stdout == "valid\n", "\(check.stderr)")
    }
}
