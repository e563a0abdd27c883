# A queue is imported as <cluster id>/<queue id> or <cluster id>/<queue key>.
terraform import buildkite_cluster_queue.linux 01234567-89ab-cdef-0123-456789abcdef/linux
