import TestSupport
import Testing

/// docs/api/ lists the public API of each library product: this fails when the code
/// declares something else, so the public API changes only on purpose (run
/// scripts/api-listing and commit docs/api/ with the change).
@Suite struct ApiListingTests {
    @Test func docsListThePublicAPIOfEveryProduct() throws {
        // The modules this test binary was built with: no second build.
        let result = try ProcessRunner.run(
            PackagePaths.root + "/scripts/api-listing", ["--check", "--bin-path", PackagePaths.binPath], timeout: 120)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
