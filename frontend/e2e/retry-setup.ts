import { jest } from "@jest/globals";

// A browser test that fails is run once more, its first failure printed in full first ("logErrorsBeforeRetry"), so a
// flake stays in the log without failing the whole run: on these loaded 2-core machines a real Chromium misses a
// moment now and then (four whole runs in a row each lost one different browser test to timing). A test failing
// twice fails the run. Only the browser tests: every other project runs once, as a retry there could hide a race.
jest.retryTimes(1, { logErrorsBeforeRetry: true });
