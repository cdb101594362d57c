"""`manage.py seed SEED.json`: the stub's catalogue, content and demo user, with JPEG photos.

SEED.json is what contracts/django/reference/export-seed.ts prints: the stub's own fixtures
(stub-server/fixtures), so both backends show the same shop with the same ids. Run it again at
any time: rows are updated in place, and photos already on disk are kept.

Painting the photos takes a few seconds; `--photo-cache DIR` keeps them across databases (the
tests start a fresh one each time), keyed by what they are made of.
"""

import hashlib
import inspect
import json
import os
import random
import shutil
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone
from PIL import Image, ImageDraw, ImageFilter

from shop import changes
from shop.models import (
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

PHOTO = (1200, 1200)
SLIDE = (1600, 1000)
# As a phone's upload would be: 2400 × 2400, about 1 MB. Two products the pact and the tests use.
LARGE_PHOTOS = {"catalog/product-7.jpg": (2400, 2400), "catalog/product-20.jpg": (2400, 2400)}

_grain = {}  # size -> noise image


def photo(path, size, colours, seed):
    """A soft, photo-like JPEG: a radial gradient in the image's colours, a few blurred berries,
    and grain, so that it compresses like a photo and not like a flat drawing."""
    rnd = random.Random(seed)
    width, height = size
    small = (width // 6, height // 6)  # shapes are drawn small and blurred, then scaled up
    mask = Image.radial_gradient("L").resize(small)
    outside, inside = (Image.new("RGB", small, colours[key]) for key in ("tint", "centre"))
    image = Image.composite(outside, inside, mask)
    draw = ImageDraw.Draw(image)
    berries = colours["berries"] or [[colours["centre"], colours["tint"], colours["tint"]]]
    unit = min(small) / 10
    for index in range(rnd.randint(5, 9)):
        light, fill, dark = berries[index % len(berries)]
        x = small[0] / 2 + rnd.uniform(-2.5, 2.5) * unit
        y = small[1] / 2 + rnd.uniform(-1.5, 2.5) * unit
        r = rnd.uniform(0.9, 1.5) * unit
        draw.ellipse([x - r, y - r * 0.9, x + r, y + r * 1.1], fill=dark)
        draw.ellipse([x - r * 0.9, y - r * 0.9, x + r * 0.8, y + r * 0.8], fill=fill)
        draw.ellipse([x - r * 0.55, y - r * 0.6, x - r * 0.05, y - r * 0.15], fill=light)
    image = image.filter(ImageFilter.GaussianBlur(unit / 6)).resize(size, Image.BICUBIC)
    # The grain: one noise image per size, made once (it is the slow part), blended in lightly.
    if size not in _grain:
        _grain[size] = Image.effect_noise(size, 64).convert("RGB")
    image = Image.blend(image, _grain[size], 0.1)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, "JPEG", quality=85)


class Command(BaseCommand):
    help = "Loads the stub's catalogue (the JSON of export-seed.ts) with generated JPEG photos."

    def add_arguments(self, parser):
        parser.add_argument("seed_json")
        parser.add_argument("--photo-cache", help="a directory to keep painted photos in")

    def handle(self, *args, seed_json, photo_cache=None, **options):
        self.photo_cache = Path(photo_cache) if photo_cache else None
        seed = json.loads(Path(seed_json).read_text(encoding="utf-8"))
        media = Path(settings.MEDIA_ROOT)
        # One change for the whole seed, not one per row: a shop already running renews all.
        with changes.paused(), transaction.atomic():
            self.catalogue(seed, media)
            self.content(seed, media)
            self.demo_user(seed)
        changes.tell_shop(everything=True)
        self.stdout.write(
            f"Seeded {len(seed['sections'])} sections, {len(seed['products'])} products,"
            f" {len(seed['orders'])} orders of {seed['user']['username']}"
            f" into {settings.DATABASES['default']['NAME']}"
        )

    def image(self, media, spec, size, seed):
        """The photo's name for an ImageField, made once: an existing file is kept."""
        if spec is None:
            return ""
        name = spec["file"]
        if not (media / name).exists():
            self.paint(media / name, LARGE_PHOTOS.get(name, size), spec["colours"], seed)
        return name

    def paint(self, path, size, colours, seed):
        if self.photo_cache is None:
            return photo(path, size, colours, seed)
        # Keyed by the painter's own code too: a change to photo() paints them anew.
        key = json.dumps([inspect.getsource(photo), size, colours, seed]).encode()
        cached = self.photo_cache / f"{hashlib.sha1(key).hexdigest()}.jpg"
        if not cached.exists():
            self.photo_cache.mkdir(parents=True, exist_ok=True)
            partial = cached.with_suffix(f".{os.getpid()}.part")  # two seeds may run at once
            photo(partial, size, colours, seed)
            os.replace(partial, cached)
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cached, path)

    def catalogue(self, seed, media):
        # Explicit ids, as the stub's: SQLite continues after the largest for new rows (on
        # PostgreSQL, run `manage.py sqlsequencereset shop` afterwards).
        for row in seed["sections"]:  # parents come before their children
            Section.objects.update_or_create(
                id=row["id"],
                defaults={
                    "name": row["name"],
                    "parent_id": row["parent"],
                    "home_position": row["home_position"],
                    "image": self.image(media, row["image"], PHOTO, 1000 + row["id"]),
                },
            )
        for row in seed["products"]:
            Product.objects.update_or_create(
                id=row["id"],
                defaults={
                    "name": row["name"],
                    "section_id": row["section"],
                    "unit": row["unit"],
                    "unit_step": row["unit_step"],
                    "price": row["price"],
                    "rest": row["rest"],
                    "available": row["available"],
                    "home_position": row["home_position"],
                    "image": self.image(media, row["image"], PHOTO, row["id"]),
                },
            )
        for row in seed["selections"]:
            selection, _ = Selection.objects.update_or_create(
                id=row["id"], defaults={"name": row["name"], "description": row["description"]}
            )
            selection.sections.set(row["sections"])
            selection.products.set(row["products"])

    def content(self, seed, media):
        for row in seed["slides"]:
            Slide.objects.update_or_create(
                id=row["id"],
                defaults={
                    "text": row["text"],
                    "background": row["background"],
                    "text_color": row["text_color"],
                    "image": self.image(media, row["image"], SLIDE, 2000 + row["id"]),
                },
            )
        # Oldest first, so that ids grow with time and "-id" lists the newest first.
        NewsPost.objects.all().delete()
        NewsPost.objects.bulk_create(
            NewsPost(data_telegram_post=post) for post in reversed(seed["news"])
        )
        policy = seed["policy"]
        if not (media / policy["name"]).exists():
            shutil.copyfile(policy["source"], media / policy["name"])
        PolicyDocument.objects.all().delete()
        PolicyDocument.objects.create(file=policy["name"])

    def demo_user(self, seed):
        fields = seed["user"]
        user, _ = get_user_model().objects.update_or_create(
            username=fields["username"],
            defaults={key: fields[key] for key in ("first_name", "last_name", "email")},
        )
        if not user.check_password(fields["password"]):
            user.set_password(fields["password"])
            user.save()
        # The order history, dated back from today (shop time), as the stub's.
        BasketLine.objects.filter(user=user).delete()
        Order.objects.filter(user=user).delete()
        today = timezone.localdate()
        for row in seed["orders"]:
            hour, minute = map(int, row["time"].split(":"))
            day = today - timedelta(days=row["daysAgo"])
            created = timezone.make_aware(datetime(day.year, day.month, day.day, hour, minute))
            order = Order.objects.create(
                user=user,
                created_ts=created,
                status=row["status"],
                delivery=row["delivery"],
                comment=row["comment"],
                phone="+79161234567",
            )
            for product_id, amount in row["lines"]:
                amount, price = Decimal(str(amount)), Product.objects.get(id=product_id).price
                OrderItem.objects.create(
                    order=order, product_id=product_id, amount=amount, price=price
                )
                order.order_sum += amount * price
            order.save()
