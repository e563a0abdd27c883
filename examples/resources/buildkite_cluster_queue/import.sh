# A queue is imported as <cluster id>/<queue id> or <cluster id>/<queue key>, the IDs UUIDs or GraphQL IDs,
# or as the official provider imports it, <queue GraphQL ID>,<cluster UUID>.
terraform import buildkite_cluster_queue.linux 01234567-89ab-cdef-0123-456789abcdef/linux
terraform import buildkite_cluster_queue.linux Q2x1c3RlclF1ZXVlLS0tZmVkY2JhOTgtNzY1NC0zMjEwLWZlZGMtYmE5ODc2NTQzMjEw,01234567-89ab-cdef-0123-456789abcdef
