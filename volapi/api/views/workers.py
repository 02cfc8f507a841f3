"""Body of POST /workers/cleanup: the services being cleaned and those
that are up (their operations are left alone), as Cinder lists them."""


def service(svc):
    return {'id': svc.id, 'host': svc.host, 'binary': svc.binary,
            'cluster_name': svc.cluster_name}


def cleanup(cleaning, unavailable):
    return {'cleaning': [service(s) for s in cleaning],
            'unavailable': [service(s) for s in unavailable]}
