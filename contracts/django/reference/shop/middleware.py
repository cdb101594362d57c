import ipaddress
import re

from django.conf import settings


def _ip(text):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


# guide: the id of the shop's request (nginx's $request_id, or the shop server's own), as the
# shop sends it in X-Request-Id; anything else is not logged as one.
REQUEST_ID = re.compile(r"^[\w.:-]{1,128}$")

# guide: the addresses the shop's servers call from; X-Forwarded-For is believed from them only.
SHOP_NETWORKS = [ipaddress.ip_network(net) for net in settings.SHOP_ADDRESSES]


class VisitorAddressMiddleware:
    """Puts the visitor's address in REMOTE_ADDR and logs every request on stdout, with the id of
    the shop's request it belongs to (the same id is in nginx's and the shop's log lines):

        203.0.113.7 "PUT /api/catalog/basket/7" 200 id=4d6f0e6b3a2c4f1e9b8a7c6d5e4f3a2b

    Behind the shop's server the connection comes from the shop (settings.SHOP_ADDRESSES), and
    the visitor's address is in X-Forwarded-For. That header is believed only then: from anywhere
    else anyone could write it. The shop sends one address; of a chain ("client, proxy1") the
    last is the one the shop saw, the others anyone could have written."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        remote = _ip(request.META.get("REMOTE_ADDR", ""))
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if remote is not None and forwarded and any(remote in net for net in SHOP_NETWORKS):
            visitor = _ip(forwarded.split(",")[-1])
            if visitor is not None:
                request.META["REMOTE_ADDR"] = str(visitor)
        response = self.get_response(request)
        address = request.META.get("REMOTE_ADDR", "-")
        given = request.META.get("HTTP_X_REQUEST_ID", "")
        request_id = given if REQUEST_ID.match(given) else "-"
        line = (
            f'{address} "{request.method} {request.get_full_path()}" {response.status_code}'
            f" id={request_id}"
        )
        print(line, flush=True)
        return response
