package suites

// The names the area's tests (package suites_test) use that the area does not export.

var SuiteAccessFromAPIForTest = suiteAccessFromAPI
