from django.conf import settings
from django.db import models
from django.utils import timezone
from rest_framework.utils.encoders import JSONEncoder

# Amounts are decimals: 1.5 kg must come back as 1.5, never as an integer's 2.
AMOUNT = {"max_digits": 10, "decimal_places": 3}
MONEY = {"max_digits": 12, "decimal_places": 2}


class Section(models.Model):
    name = models.CharField(max_length=200)
    image = models.ImageField(upload_to="catalog", blank=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, related_name="children", on_delete=models.CASCADE
    )
    # Set: shown on the home page (GET catalog/section), in this order.
    home_position = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.name

    def path(self):
        """The sections from the root down to this one (breadcrumbs)."""
        chain, section = [], self
        while section is not None:
            chain.append(section)
            section = section.parent
        return chain[::-1]


class Product(models.Model):
    name = models.CharField(max_length=200)
    section = models.ForeignKey(Section, related_name="products", on_delete=models.PROTECT)
    image = models.ImageField(upload_to="catalog", blank=True)
    unit = models.CharField(max_length=20)  # "кг", "л", "шт"
    unit_step = models.DecimalField(null=True, blank=True, **AMOUNT)  # null: 0.1, or 1 for "шт"
    price = models.DecimalField(null=True, blank=True, **MONEY)  # null: not on sale yet
    rest = models.DecimalField(default=0, **AMOUNT)  # in stock
    available = models.BooleanField(default=True)
    home_position = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.name


class Selection(models.Model):
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    sections = models.ManyToManyField(Section, blank=True)
    products = models.ManyToManyField(Product, blank=True)

    class Meta:
        ordering = ["id"]


class BasketLine(models.Model):
    """One line of a basket: an anonymous visitor's (by session key) or a user's."""

    session_key = models.CharField(max_length=40, null=True, blank=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    product = models.ForeignKey(Product, on_delete=models.CASCADE)
    amount = models.DecimalField(**AMOUNT)

    class Meta:
        ordering = ["id"]


class Order(models.Model):
    STATUSES = [
        (0, "Новый"),
        (1, "Подтверждён"),
        (2, "Собирается"),
        (3, "Доставляется"),
        (4, "Выполнен"),
        (5, "Отменён"),
    ]
    DELIVERY = [("1", "Доставка"), ("2", "Самовывоз")]

    session_key = models.CharField(max_length=40, null=True, blank=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_ts = models.DateTimeField(default=timezone.now)
    status = models.PositiveSmallIntegerField(choices=STATUSES, default=0)
    order_sum = models.DecimalField(default=0, **MONEY)
    phone = models.CharField(max_length=12)  # +79161234567
    comment = models.CharField(max_length=150, blank=True)
    delivery = models.CharField(max_length=1, choices=DELIVERY)
    send_accept = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_ts", "-id"]  # newest first, as the order history shows them


class OrderItem(models.Model):
    order = models.ForeignKey(Order, related_name="items", on_delete=models.CASCADE)
    product = models.ForeignKey(Product, on_delete=models.PROTECT)
    amount = models.DecimalField(**AMOUNT)
    price = models.DecimalField(**MONEY)  # the price when ordered

    class Meta:
        ordering = ["id"]


class OrderAttempt(models.Model):
    """One checkout attempt: a visitor's Idempotency-Key on POST catalog/order_commit, and the
    first request's answer (none while it is being placed), which every repeat gets again.

    The unique constraint is what makes it one order: two requests with the same key, on two
    threads or two servers, cannot both insert their row, so only one goes on to place the
    order."""

    # "user:7" or "session:<session key>": the key is unique per visitor, not across the shop.
    visitor = models.CharField(max_length=60)
    key = models.CharField(max_length=255)
    started = models.DateTimeField(default=timezone.now, db_index=True)
    status = models.PositiveSmallIntegerField(null=True)  # null: being placed
    # DRF's encoder, as the answer was rendered: prices stay numbers.
    body = models.JSONField(null=True, encoder=JSONEncoder)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["visitor", "key"], name="one_order_per_attempt")
        ]


class Slide(models.Model):
    """A slide of the home page carousel."""

    text = models.TextField()
    image = models.ImageField(upload_to="carousel", blank=True)
    background = models.CharField(max_length=20)
    text_color = models.CharField(max_length=20)

    class Meta:
        ordering = ["id"]


class NewsPost(models.Model):
    data_telegram_post = models.CharField(max_length=100)  # "channel/48"

    class Meta:
        ordering = ["-id"]  # newest first


class PolicyDocument(models.Model):
    file = models.FileField(upload_to="")

    class Meta:
        ordering = ["-id"]  # the latest is the one in force
