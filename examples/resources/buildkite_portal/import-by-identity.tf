# A portal is named by its slug. Its token cannot be read back: it is null after the import.
import {
  to = buildkite_portal.build_stats
  identity = {
    slug = "build-stats"
  }
}
