# Agent and job counts from the agent API, with an agent registration token (or set
# BUILDKITE_AGENT_TOKEN and leave agent_token out).
variable "agent_token" {
  type      = string
  sensitive = true
}

data "buildkite_agent_metrics" "all" {
  agent_token = var.agent_token
}

# One queue only.
data "buildkite_agent_metrics" "linux" {
  agent_token = var.agent_token
  queue       = "linux"
}

output "idle_agents" {
  value = data.buildkite_agent_metrics.all.agents.idle
}

output "linux_waiting_jobs" {
  value = data.buildkite_agent_metrics.linux.jobs.waiting
}
