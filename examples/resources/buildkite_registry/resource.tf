resource "buildkite_registry" "gems" {
  name        = "Ruby Gems"
  ecosystem   = "ruby"
  description = "Gems shared by every team"
  emoji       = ":gem:"
  color       = "#FFE0E0"
}
