from django.apps import AppConfig


class ShopConfig(AppConfig):
    name = "shop"
    default_auto_field = "django.db.models.AutoField"

    def ready(self):
        # Tell the shop what changed (shop/signals.py).
        from . import signals  # noqa: F401
