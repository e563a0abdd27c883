# A portal is imported by its slug. Its token cannot be read back: it is null after the import.
terraform import buildkite_portal.build_stats build-stats
