"""The edge of the server: the request guard, quotas and rate buckets, the error shape, logs,
metrics and what every router reads off a request."""
