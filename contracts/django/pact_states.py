"""Provider states of the storefront's pact, for a Django / DRF backend.

Copy this file into your project (for example ``shop/pact_states.py``), fill in every function
that raises ``NotImplementedError`` with your models, and mount ``provider_state`` in test
settings only: it writes to the database without authentication. ``contracts/README.md`` says
what each state must make true; each function's docstring repeats it.

The state names are the pact's own (``contracts/support/states.ts``) and the storefront's tests
check that this file lists exactly those, with their parameters: rename nothing here.

``npm run contracts:verify`` POSTs ``{"state": ..., "params": {...}, "action": "setup"}`` before
each interaction, with the same cookies as the interaction's requests (``csrftoken`` and
``sessionid``). It sends no teardown: each state puts the data it names in place whatever the
previous interaction left, and leaves the other rows alone.
"""

import json
from importlib import import_module

from django.conf import settings
from django.db import transaction
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

#: The anonymous visitor of the verifier: the ``sessionid`` cookie of every replayed request.
PACT_SESSION = "pactsessionforcontracttests00001"
#: Another visitor, whose Idempotency-Key must never answer the verifier's: any other session
#: key will do.
OTHER_SESSION = "pactothervisitorforcontracts0002"

STATES = {}


def state(name):
    """Registers the function that makes the state ``name`` true."""

    def register(handler):
        STATES[name] = handler
        return handler

    return register


def session_of(key):
    """The session ``key``, created with that very key when it does not exist yet, so that the
    requests that follow find it."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    if not session.exists(key):
        session.save(must_create=True)
    return session


def visitor_session(request):
    """The session of the visitor a basket or order state is about: the cookie's, or the
    verifier's. Put the visitor's basket and orders under ``session.session_key``."""
    return session_of(request.COOKIES.get(settings.SESSION_COOKIE_NAME) or PACT_SESSION)


# Catalogue --------------------------------------------------------------------------------


@state("the home page lists product {id}")
def home_page_lists_product(request, id):
    """Product ``id`` as in "product {id} exists", listed by GET /api/catalog/product."""
    raise NotImplementedError


@state("product {id} exists")
def product_exists(request, id):
    """Product ``id`` in a section, available, with a price, a unit step of 0.1 (or none: 0.1
    is the default) and at least 2 in stock: the basket sets 1.5 and 2 of it; 11 is over the
    limit of 10 whatever the stock."""
    raise NotImplementedError


@state("product {id} has no image, price or unit step")
def product_without_image_price_or_step(request, id):
    """Product ``id`` with ``image``, ``price`` and ``unit_step`` null."""
    raise NotImplementedError


@state("product {id} does not exist")
def no_product(request, id):
    """No product ``id``: product_retrieve and product_breadcrumbs answer 404."""
    raise NotImplementedError


@state("a search for {q} finds a product named {name}")
def product_search_finds(request, q, name):
    """A product named ``name`` among those GET /api/catalog/product_search?q={q} answers."""
    raise NotImplementedError


@state("no product matches {q}")
def no_product_matches(request, q):
    """GET /api/catalog/product_search?q={q} answers []."""
    raise NotImplementedError


@state("the home page lists section {id}")
def home_page_lists_section(request, id):
    """Section ``id``, listed by GET /api/catalog/section."""
    raise NotImplementedError


@state("section {id} is a root section")
def root_section(request, id):
    """Section ``id`` without a parent, listed by GET /api/catalog/section_root."""
    raise NotImplementedError


@state("section {id} exists")
def section_exists(request, id):
    """Section ``id`` with at least one child section and one product; its breadcrumbs list
    at least one section."""
    raise NotImplementedError


@state("section {id} is empty")
def empty_section(request, id):
    """Section ``id`` (create it if missing) without child sections or products:
    section_retrieve answers ``"children": []`` and ``"products": []``."""
    raise NotImplementedError


@state("section {id} does not exist")
def no_section(request, id):
    """No section ``id``: section_retrieve and section_breadcrumbs answer 404."""
    raise NotImplementedError


@state("a search for {q} finds a section named {name}")
def section_search_finds(request, q, name):
    """A section named ``name`` among those GET /api/catalog/section_search?q={q} answers."""
    raise NotImplementedError


@state("no section matches {q}")
def no_section_matches(request, q):
    """GET /api/catalog/section_search?q={q} answers []."""
    raise NotImplementedError


@state("selection {id} exists")
def selection_exists(request, id):
    """Selection ``id`` with at least one section and one product, listed by
    GET /api/catalog/selections (other selections may be empty)."""
    raise NotImplementedError


@state("selection {id} is empty")
def empty_selection(request, id):
    """Selection ``id`` (create it if missing) without sections or products:
    selection_retrieve answers ``"sections": []`` and ``"products": []``."""
    raise NotImplementedError


@state("selection {id} does not exist")
def no_selection(request, id):
    """No selection ``id``: selection_retrieve answers 404."""
    raise NotImplementedError


# The visitor's basket and orders: use visitor_session(request).session_key -----------------


@state("the basket is empty")
def empty_basket(request):
    """The visitor's basket has no lines: GET /api/catalog/basket answers {}."""
    raise NotImplementedError


@state("the basket holds product {id} with amount {amount}")
def basket_holds(request, id, amount):
    """Product ``id`` as in "product {id} exists"; the visitor's basket holds exactly that
    line, so an order can be placed from it."""
    raise NotImplementedError


@state("the visitor has {n} orders")
def visitor_orders(request, n):
    """Exactly ``n`` orders of the visitor, each with at least one item."""
    raise NotImplementedError


# One order per checkout (Idempotency-Key): the first answers a repeat must get ---------------
#
# Each makes a first request of a checkout and keeps its answer, for the verifier's visitor or
# another one. Best through your own view (``rest_framework.test.APIClient`` with the visitor's
# ``sessionid`` cookie and ``HTTP_IDEMPOTENCY_KEY``), so the verification checks what your view
# keeps. Give the client an allowed host (``APIClient(HTTP_HOST="127.0.0.1")``): its own,
# ``testserver``, gets Django's HTML 400 page (DisallowedHost), a 400 like a refused phone's, so
# check the answer's body too. "Being placed" writes its row.


@state("the visitor's checkout with Idempotency-Key {key} placed an order of product {id}")
def placed_attempt(request, key, id):
    """The visitor's order of product ``id`` (as in "product {id} exists"), placed by a
    checkout with ``key``, whose answer (201 and the order) is kept for that key; the basket is
    empty now. The state names no amount and no basket: put product ``id`` into the visitor's
    basket yourself (1.5 of it, say), then place the order. A repeat with ``key`` must get that
    201 and order, not «the basket is empty»."""
    raise NotImplementedError


@state("another visitor's checkout with Idempotency-Key {key} placed an order of product {id}")
def other_visitor_attempt(request, key, id):
    """Another visitor (the session ``OTHER_SESSION``: any but the verifier's will do) placed an
    order of product ``id`` with ``key``, as "placed an order" above, and its answer is kept for
    them: the verifier's visitor sending ``key`` is processed as a first request of their own
    (with their basket empty: 400)."""
    raise NotImplementedError


@state("the visitor's checkout with Idempotency-Key {key} was refused for its phone")
def refused_attempt(request, key):
    """The visitor's checkout with ``key`` was refused: its kept answer is 400
    ``{"phone": ["Некорректный номер"]}``. A repeat gets it again whatever its body."""
    raise NotImplementedError


@state("the visitor's checkout with Idempotency-Key {key} is being placed")
def attempt_in_flight(request, key):
    """The visitor's first request with ``key`` is being placed right now: no answer yet, and
    started now. Reset ``started`` when the row is there from an earlier run: a row older than
    the takeover window (a minute) is a lost request, which a repeat takes over and places
    (201), where the pact wants 409 at once and nothing placed."""
    raise NotImplementedError


# Users and tokens -------------------------------------------------------------------------


@state("a user {username} with password {password} exists")
def user_exists(request, username, password):
    """The user ``username`` with the password ``password``."""
    raise NotImplementedError


@state("the token {token} belongs to user {username}")
def user_token(request, token, username):
    """The user ``username`` (create it if missing), with the DRF token whose key is
    ``token``."""
    raise NotImplementedError


@state("the token {token} is revoked")
def revoked_token(request, token):
    """No valid token ``token``: every call that sends it answers 401."""
    raise NotImplementedError


# Content ----------------------------------------------------------------------------------


@state("the privacy policy is published")
def policy_published(request):
    """GET /api/content/policy answers the link to the policy document."""
    raise NotImplementedError


@state("the carousel has slides")
def carousel_slides(request):
    """At least one home slide."""
    raise NotImplementedError


@state("the news channel has posts")
def news_posts(request):
    """At least one news post."""
    raise NotImplementedError


# The view ---------------------------------------------------------------------------------


def answer(status, detail):
    return JsonResponse({"detail": detail}, status=status)


@csrf_exempt  # the verifier's state call carries the CSRF cookie but no X-CSRFToken header
@require_POST
def provider_state(request):
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return answer(400, "the body is not JSON")
    if body.get("action", "setup") != "setup":
        return JsonResponse({})
    name = body.get("state")
    handler = STATES.get(name)
    if handler is None:
        return answer(400, f"unknown provider state: {name!r}")
    try:
        with transaction.atomic():
            handler(request, **(body.get("params") or {}))
    except NotImplementedError:
        return answer(501, f"not set up yet: fill in {handler.__name__}() in {__name__}")
    except Exception as error:  # the verifier shows this answer as the reason the state failed
        return answer(500, f"{handler.__name__}() failed: {type(error).__name__}: {error}")
    return JsonResponse({})
