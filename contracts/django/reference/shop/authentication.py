from rest_framework.authentication import SessionAuthentication


class CsrfSessionAuthentication(SessionAuthentication):
    """The guide's class, verbatim: DRF checks CSRF only for logged-in sessions; the storefront's
    basket and orders are anonymous, so this checks it for every visitor: a PUT, POST or DELETE
    without a matching X-CSRFToken answers 403 {"detail": "CSRF Failed: ..."}. Requests with a
    valid token never get here (TokenAuthentication comes first)."""

    def authenticate(self, request):
        self.enforce_csrf(request)
        return super().authenticate(request)
