import re
from decimal import Decimal

from django.contrib.auth import get_user_model
from rest_framework import serializers

from .models import (
    BasketLine,
    NewsPost,
    Order,
    OrderItem,
    PolicyDocument,
    Product,
    Section,
    Selection,
    Slide,
)

# ImageField and FileField turn into absolute URLs when the serializer has the request in its
# context (generic views put it there): "http://shop.example/media/catalog/product-7.jpg", with
# the host and scheme the shop's proxy forwards (settings: USE_X_FORWARDED_HOST).


class ProductSerializer(serializers.ModelSerializer):
    class Meta:
        model = Product
        fields = ["id", "name", "image", "unit", "unit_step", "price", "rest", "available"]


class SectionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Section
        fields = ["id", "name", "image"]


class CrumbSerializer(serializers.ModelSerializer):
    class Meta:
        model = Section
        fields = ["id", "name"]


class SectionDetailSerializer(serializers.ModelSerializer):
    # Empty lists stay [] (the page reads their length).
    children = SectionSerializer(many=True, read_only=True)
    products = ProductSerializer(many=True, read_only=True)

    class Meta:
        model = Section
        fields = ["id", "name", "image", "children", "products"]


class SelectionSerializer(serializers.ModelSerializer):
    sections = SectionSerializer(many=True, read_only=True)
    products = ProductSerializer(many=True, read_only=True)

    class Meta:
        model = Selection
        fields = ["id", "name", "description", "sections", "products"]


class BasketLineSerializer(serializers.ModelSerializer):
    product = ProductSerializer(read_only=True)

    class Meta:
        model = BasketLine
        fields = ["product", "amount"]


BASKET_MAX = Decimal(10)  # per product (spec §9); lower when the stock is lower


def _plain(number):
    """A number in a message as the shop writes it: 10 (not 10.000), 2,5."""
    text = str(int(number)) if number == int(number) else str(number.normalize())
    return text.replace(".", ",")


class BasketAmountSerializer(serializers.Serializer):
    """The body of PUT catalog/basket/{id}: {"amount": 1.5}; 0 removes the line."""

    amount = serializers.DecimalField(max_digits=10, decimal_places=3, min_value=0)

    def __init__(self, *args, product, **kwargs):
        super().__init__(*args, **kwargs)
        self.product = product

    def validate_amount(self, amount):
        product = self.product
        if amount == 0:
            return amount
        if not product.available or product.rest <= 0:
            raise serializers.ValidationError("Товар закончился")
        limit = min(BASKET_MAX, product.rest)
        if amount > limit:
            # DRF's own max_value text (the app shows it as it is)
            raise serializers.ValidationError(
                f"Убедитесь, что значение меньше или равно {_plain(limit)}."
            )
        if product.unit.strip().lower() == "шт":
            if amount != int(amount):
                raise serializers.ValidationError("Для штучного товара укажите целое число")
        else:
            step = product.unit_step or Decimal("0.1")
            if amount % step != 0:
                raise serializers.ValidationError(f"Количество должно быть кратно {_plain(step)}")
        return amount


class OrderProductSerializer(serializers.ModelSerializer):
    class Meta:
        model = Product
        fields = ["id", "name", "unit"]


class OrderItemSerializer(serializers.ModelSerializer):
    product = OrderProductSerializer(read_only=True)

    class Meta:
        model = OrderItem
        fields = ["id", "amount", "price", "product"]


class OrderSerializer(serializers.ModelSerializer):
    items = OrderItemSerializer(many=True, read_only=True)

    class Meta:
        model = Order
        fields = [
            "id", "created_ts", "status", "order_sum", "items", "phone", "comment", "delivery"
        ]


PHONE_INVALID = "Некорректный номер"


class OrderCommitSerializer(serializers.Serializer):
    """The body of POST catalog/order_commit. The texts are the spec's (§5)."""

    phone = serializers.CharField(
        error_messages={"required": "Обязательное поле", "blank": "Обязательное поле"}
    )
    comment = serializers.CharField(
        max_length=150,
        required=False,
        allow_blank=True,
        error_messages={"max_length": "Максимальная длина 150"},
    )
    delivery = serializers.ChoiceField(
        choices=["1", "2"], error_messages={"invalid_choice": "Выберите один из способов получения"}
    )
    policy_accept = serializers.BooleanField()
    send_accept = serializers.BooleanField(required=False, default=False)

    def validate_phone(self, phone):
        """The app sends the masked "+7(916)-123-45-67": 10 digits after +7, the first a 9."""
        digits = re.sub(r"[\s()\-]", "", phone)
        digits = digits[2:] if digits.startswith("+7") else digits
        if not re.fullmatch(r"9\d{9}", digits):
            raise serializers.ValidationError(PHONE_INVALID)
        return f"+7{digits}"

    def validate_policy_accept(self, accepted):
        if not accepted:
            raise serializers.ValidationError(
                "Необходимо согласиться с политикой конфиденциальности"
            )
        return accepted


class SlideSerializer(serializers.ModelSerializer):
    class Meta:
        model = Slide
        fields = ["id", "text", "image", "background", "text_color"]


class NewsPostSerializer(serializers.ModelSerializer):
    class Meta:
        model = NewsPost
        fields = ["data_telegram_post"]


class PolicySerializer(serializers.ModelSerializer):
    class Meta:
        model = PolicyDocument
        fields = ["file"]


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = get_user_model()
        fields = ["id", "username", "first_name", "last_name", "email"]
