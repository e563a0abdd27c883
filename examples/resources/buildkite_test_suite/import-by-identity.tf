# A test suite is named by its slug. An imported suite has no api_token: the service shows it only
# when the suite is created.
import {
  to = buildkite_test_suite.rspec
  identity = {
    slug = "rspec"
  }
}
