import ipaddress


def _ip(text):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


class VisitorAddressMiddleware:
    """Puts the visitor's address in REMOTE_ADDR and logs every request on stdout:

        203.0.113.7 "PUT /api/catalog/basket/7" 200

    Behind the shop's server the connection comes from loopback, and the visitor's address is in
    X-Forwarded-For. That header is believed only then: from anywhere else anyone could write
    it. Of a chain ("client, proxy1"), the last address is the one our proxy saw."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        remote = _ip(request.META.get("REMOTE_ADDR", ""))
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if remote is not None and remote.is_loopback and forwarded:
            visitor = _ip(forwarded.split(",")[-1])
            if visitor is not None:
                request.META["REMOTE_ADDR"] = str(visitor)
        response = self.get_response(request)
        address = request.META.get("REMOTE_ADDR", "-")
        line = f'{address} "{request.method} {request.get_full_path()}" {response.status_code}'
        print(line, flush=True)
        return response
