# Runs against whatever Buildkite the environment names: the emulator in CI (make test-tftest, or the GitHub
# Actions job in EMULATOR.md). Each run applies into the same state; terraform test destroys it at the end.

variables {
  team_name = "Platform"
  queues    = ["linux", "macos"]
}

run "plan_names_the_objects" {
  command = plan

  assert {
    condition     = buildkite_cluster.this.name == "Platform cluster"
    error_message = "The cluster is not named after the team."
  }

  assert {
    condition     = length(buildkite_cluster_queue.this) == 2
    error_message = "Each key in var.queues makes one queue."
  }
}

run "apply_makes_a_cluster_its_queues_and_a_pipeline" {
  assert {
    condition     = buildkite_cluster.this.uuid != ""
    error_message = "The cluster has no UUID: it was not made."
  }

  assert {
    condition     = buildkite_cluster_default_queue.this.queue_id == buildkite_cluster_queue.this["linux"].id
    error_message = "The first queue is not the cluster's default."
  }

  assert {
    condition     = output.pipeline_slug == "platform-app"
    error_message = "The pipeline's slug is not derived from its name."
  }

  assert {
    condition     = buildkite_pipeline.this.cluster_id == buildkite_cluster.this.id
    error_message = "The pipeline is not in the cluster."
  }
}

run "a_third_queue_is_added_in_place" {
  variables {
    queues = ["linux", "macos", "arm64"]
  }

  assert {
    condition     = output.queue_ids["linux"] == run.apply_makes_a_cluster_its_queues_and_a_pipeline.queue_ids["linux"]
    error_message = "Adding a queue replaced the existing ones."
  }

  assert {
    condition     = length(output.queue_ids) == 3
    error_message = "The third queue was not made."
  }
}

run "no_queue_is_refused" {
  command = plan

  variables {
    queues = []
  }

  expect_failures = [var.queues]
}
