"""oslo.messaging for volapi: the transport, the versioned-object serializer,
the client that casts to volume workers and the server that runs a worker's
endpoints.

Like the other packages below ``volapi``, nothing here imports ``volapi``:
configuration arrives as an oslo.config ``ConfigOpts`` and the request
context class the server rebuilds is a parameter.
"""
