# Every notification service of a kind buildkite_notification_service manages, shown by description;
# config { name = "…" } finds those with that description.
list "buildkite_notification_service" "all" {
  provider = buildkite
}
