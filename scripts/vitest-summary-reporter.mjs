// A Vitest reporter that ends the run with one plain line, "N passed, N failed, N skipped",
// so CI logs say how many tests ran in a form any log reader understands.
export default class SummaryReporter {
  /** @param {ReadonlyArray<import('vitest/node').TestModule>} testModules */
  onTestRunEnd(testModules) {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) counts[test.result().state] += 1;
    }
    process.stdout.write(
      `\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped + counts.pending} skipped\n`,
    );
  }
}
