# A team's access to a pipeline is named by the team's UUID and the pipeline's.
import {
  to = buildkite_pipeline_team.platform_deploy
  identity = {
    team_id     = "01234567-89ab-cdef-0123-456789abcdef"
    pipeline_id = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}
