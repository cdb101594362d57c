"""The storefront's API (spec §7), as contracts/README.md pins each answer."""

from datetime import timedelta
from decimal import Decimal
import threading

from django.db import IntegrityError, transaction
from django.db.models import Case, F, Value, When
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from rest_framework import generics, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from . import changes
from . import serializers as s
from .models import (
    BasketLine,
    NewsPost,
    Order,
    OrderAttempt,
    OrderItem,
    PolicyDocument,
    Product,
    Section,
    Selection,
    Slide,
)

# Catalogue ---------------------------------------------------------------------------------


def matching(queryset, query):
    """The rows whose name contains every word of `query`, ignoring case and ё/е.

    Done in Python because SQLite's LIKE (icontains) folds only Latin letters: «черника» would
    not find «Черника». On PostgreSQL, `name__icontains` (or full-text search) does it in SQL."""

    def fold(text):
        return text.casefold().replace("ё", "е")

    words = fold(query).split()
    if not words:
        return []
    return [row for row in queryset if all(word in fold(row.name) for word in words)]


class HomeProducts(generics.ListAPIView):
    queryset = Product.objects.filter(home_position__isnull=False).order_by("home_position")
    serializer_class = s.ProductSerializer


class ProductRetrieve(generics.RetrieveAPIView):
    queryset = Product.objects.all()
    serializer_class = s.ProductSerializer


class ProductSearch(APIView):
    def get(self, request):
        found = matching(Product.objects.all(), request.query_params.get("q", ""))
        return Response(s.ProductSerializer(found, many=True, context={"request": request}).data)


class ProductBreadcrumbs(APIView):
    def get(self, request, pk):
        product = get_object_or_404(Product.objects.select_related("section"), pk=pk)
        return Response(s.CrumbSerializer(product.section.path(), many=True).data)


class HomeSections(generics.ListAPIView):
    queryset = Section.objects.filter(home_position__isnull=False).order_by("home_position")
    serializer_class = s.SectionSerializer


class RootSections(generics.ListAPIView):
    queryset = Section.objects.filter(parent__isnull=True)
    serializer_class = s.SectionSerializer


class SectionRetrieve(generics.RetrieveAPIView):
    queryset = Section.objects.prefetch_related("children", "products")
    serializer_class = s.SectionDetailSerializer


class SectionSearch(APIView):
    def get(self, request):
        found = matching(Section.objects.all(), request.query_params.get("q", ""))
        return Response(s.SectionSerializer(found, many=True, context={"request": request}).data)


class SectionBreadcrumbs(APIView):
    def get(self, request, pk):
        section = get_object_or_404(Section, pk=pk)
        return Response(s.CrumbSerializer(section.path(), many=True).data)


class Selections(generics.ListAPIView):
    queryset = Selection.objects.prefetch_related("sections", "products")
    serializer_class = s.SelectionSerializer


class SelectionRetrieve(generics.RetrieveAPIView):
    queryset = Selection.objects.prefetch_related("sections", "products")
    serializer_class = s.SelectionSerializer


# The visitor's basket and orders -----------------------------------------------------------


def owner(request, create=False):
    """Whose basket and orders: the user's with a token, else the anonymous visitor's session.

    As filter/create keyword arguments, or None for a visitor without a session yet (create=True
    starts one; SessionMiddleware then sends its `sessionid` cookie)."""
    if request.user.is_authenticated:
        return {"user": request.user}
    session = request.session
    # Reading the session loads it: a cookie that names no stored session leaves no key.
    session.keys()
    if session.session_key is None and create:
        session.create()
    return {"session_key": session.session_key} if session.session_key else None


def basket_lines(request):
    who = owner(request)
    if who is None:
        return BasketLine.objects.none()
    return BasketLine.objects.filter(**who).select_related("product")


def orderable(lines):
    """The lines an order takes: available and priced."""
    return [line for line in lines if line.product.available and line.product.price is not None]


@method_decorator(ensure_csrf_cookie, name="get")
class Basket(APIView):
    """GET catalog/basket: {"7": {"product": {...}, "amount": 1.5}}.

    The app loads the basket first on every visit, so this is where every visitor gets the
    `csrftoken` cookie that it sends back as X-CSRFToken (the pact checks the Set-Cookie). DRF's
    views never ask for the token themselves, so without ensure_csrf_cookie no visitor could
    ever PUT, POST or DELETE."""

    def get(self, request):
        context = {"request": request}
        return Response(
            {
                str(line.product_id): s.BasketLineSerializer(line, context=context).data
                for line in basket_lines(request)
            }
        )


class BasketLineView(APIView):
    """PUT catalog/basket/{id} {"amount": 1.5}: sets the line (0 removes it); DELETE removes it."""

    def put(self, request, pk):
        product = get_object_or_404(Product, pk=pk)
        body = s.BasketAmountSerializer(data=request.data, product=product)
        body.is_valid(raise_exception=True)
        amount = body.validated_data["amount"]
        who = owner(request, create=True)
        if amount == 0:
            BasketLine.objects.filter(product=product, **who).delete()
            line = BasketLine(product=product, amount=amount)
        else:
            line, _ = BasketLine.objects.update_or_create(
                product=product, defaults={"amount": amount}, **who
            )
        return Response(s.BasketLineSerializer(line, context={"request": request}).data)

    def delete(self, request, pk):
        product = get_object_or_404(Product, pk=pk)
        basket_lines(request).filter(product=product).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class TotalPrice(APIView):
    def get(self, request):
        lines = orderable(basket_lines(request))
        total = sum((line.amount * line.product.price for line in lines), Decimal(0))
        return Response(total.quantize(Decimal("0.01")))  # a bare number: 1335.0


# One order per checkout attempt (the guide's "One order per checkout"): how long a key is kept,
# and after how long a first request still unanswered counts as lost (its process died).
ATTEMPT_KEPT = timedelta(days=1)
ATTEMPT_LOST = timedelta(minutes=1)
ORDER_IN_FLIGHT = "Заказ с этим ключом ещё оформляется. Повторите запрос чуть позже."


def visitor_name(who):
    return f"user:{who['user'].pk}" if "user" in who else f"session:{who['session_key']}"


PLACING = threading.Lock()


class OrderCommit(APIView):
    """POST catalog/order_commit: the orderable lines of the basket become an order.

    Answers the order as order_history lists it (the app drops the ordered lines from its basket
    by the product ids of `items`), not the input as CreateAPIView would.

    With an Idempotency-Key, one order per key and visitor: the first request's answer (placed
    or refused) is kept, a repeat gets it again, and a repeat while the first is being placed
    gets 409."""

    def post(self, request):
        key = request.headers.get("Idempotency-Key")
        if key is None:
            return self.place(request)
        if not 0 < len(key) <= 255:
            raise ValidationError({"detail": "Idempotency-Key: от 1 до 255 символов."})
        visitor = visitor_name(owner(request, create=True))
        # One at a time in this process: SQLite refuses a second writer at once ("database is
        # locked") rather than waiting. Across processes the unique constraint decides.
        with PLACING:
            return self.place_once(request, visitor, key)

    def place_once(self, request, visitor, key):
        now = timezone.now()
        OrderAttempt.objects.filter(started__lt=now - ATTEMPT_KEPT).delete()
        # Committed at once, apart from the order's transaction: a repeat on another thread or
        # server sees it while the order is being placed. The unique constraint lets one in.
        try:
            with transaction.atomic():
                attempt = OrderAttempt.objects.create(visitor=visitor, key=key)
        except IntegrityError:
            first = OrderAttempt.objects.filter(visitor=visitor, key=key).first()
            if first is None:
                # The first request failed meanwhile and let its key go: this one may try again.
                return Response({"detail": ORDER_IN_FLIGHT}, status=status.HTTP_409_CONFLICT)
            if first.status is not None:
                return Response(first.body, status=first.status)
            lost = first.started < now - ATTEMPT_LOST
            # Taken over by one repeat only: the row it deletes is gone for any other.
            if not (lost and OrderAttempt.objects.filter(pk=first.pk, status=None).delete()[0]):
                return Response({"detail": ORDER_IN_FLIGHT}, status=status.HTTP_409_CONFLICT)
            attempt = OrderAttempt.objects.create(visitor=visitor, key=key)
        try:
            response = self.place(request)
        except APIException as refused:
            # A refused order (400) is an answer like a placed one: kept, and given again.
            response = self.handle_exception(refused)
        except Exception:
            # The server's own failure is not kept: a repeat places the order afresh.
            attempt.delete()
            raise
        attempt.status, attempt.body = response.status_code, response.data
        attempt.save(update_fields=["status", "body"])
        return response

    @transaction.atomic
    def place(self, request):
        body = s.OrderCommitSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        lines = orderable(basket_lines(request))
        if not lines:
            raise ValidationError({"non_field_errors": ["В корзине нет доступных товаров"]})
        fields = dict(body.validated_data)
        fields.pop("policy_accept")
        order = Order.objects.create(**owner(request), **fields)
        for line in lines:
            OrderItem.objects.create(
                order=order, product=line.product, amount=line.amount, price=line.product.price
            )
        order.order_sum = sum((item.amount * item.price for item in order.items.all()), Decimal(0))
        order.save(update_fields=["order_sum"])
        BasketLine.objects.filter(id__in=[line.id for line in lines]).delete()
        take_stock(lines)
        return Response(s.OrderSerializer(order).data, status=status.HTTP_201_CREATED)


def take_stock(lines):
    """The order takes its amounts from stock; what runs out is no longer available. Done in the
    database (F), so two orders at once both count, and told to the shop once the order commits:
    a product that sells out reads «закончилось» on its page within seconds. A Case, not
    Greatest: SQLite's MAX() ranks the text it is given for Decimal(0) above every number."""
    for line in lines:
        Product.objects.filter(pk=line.product_id).update(
            rest=Case(
                When(rest__gt=line.amount, then=F("rest") - line.amount),
                default=Value(Decimal(0)),
            )
        )
    ordered = [line.product_id for line in lines]
    Product.objects.filter(pk__in=ordered, rest__lte=0).update(available=False)
    changes.tell_shop(products=ordered)


class OrderHistory(APIView):
    def get(self, request):
        who = owner(request)
        orders = Order.objects.filter(**who).prefetch_related("items__product") if who else []
        return Response(s.OrderSerializer(orders, many=True).data)


# Content -----------------------------------------------------------------------------------


class Policy(APIView):
    def get(self, request):
        document = PolicyDocument.objects.first()
        if document is None:
            return Response({"detail": "Не найдено."}, status=status.HTTP_404_NOT_FOUND)
        return Response(s.PolicySerializer(document, context={"request": request}).data)


class Carousel(generics.ListAPIView):
    queryset = Slide.objects.all()
    serializer_class = s.SlideSerializer


class News(generics.ListAPIView):
    queryset = NewsPost.objects.all()
    serializer_class = s.NewsPostSerializer


# Users -------------------------------------------------------------------------------------


class ObtainToken(ObtainAuthToken):
    """DRF's obtain_auth_token ({"token": "…"}, 400 for wrong credentials), and what the visitor
    put in the basket before logging in moves into the account's basket (a product in both
    keeps the larger amount)."""

    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        with transaction.atomic():
            token, _ = Token.objects.get_or_create(user=user)
            for line in basket_lines(request):
                mine = BasketLine.objects.filter(user=user, product=line.product).first()
                if mine is None:
                    line.session_key, line.user = None, user
                    line.save()
                else:
                    mine.amount = max(mine.amount, line.amount)
                    mine.save()
                    line.delete()
        return Response({"token": token.key})


class Me(APIView):
    permission_classes = [IsAuthenticated]  # anonymous: 401 (TokenAuthentication's header)

    def get(self, request):
        return Response(s.UserSerializer(request.user).data)

