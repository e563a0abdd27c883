# A notification service is named by its UUID.
import {
  to = buildkite_notification_service.builds
  identity = {
    id = "0b4f2ce2-3b8d-4e5c-9f4c-6a1d2e3f4a5b"
  }
}
