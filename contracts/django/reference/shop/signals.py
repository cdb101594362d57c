"""What each saved or deleted row changes on the shop's pages (contracts/README.md, "Tell the
shop what changed"). Name what changed, and the lists whose members changed: a product created,
deleted or moved also names its sections, a section its parents. An order lowers stock in
shop/views.py and tells the shop there."""

from django.db.models.signals import m2m_changed, post_delete, post_save, pre_save
from django.dispatch import receiver

from .changes import tell_shop
from .models import NewsPost, PolicyDocument, Product, Section, Selection, Slide


@receiver(pre_save, sender=Product)
@receiver(pre_save, sender=Section)
def remember_place(sender, instance, **kwargs):
    """Where the row was before this save: the list it leaves changes too."""
    field = "section_id" if sender is Product else "parent_id"
    rows = sender.objects.filter(pk=instance.pk) if instance.pk else sender.objects.none()
    instance._place_before = rows.values_list(field, flat=True).first()


@receiver(post_save, sender=Product)
def product_saved(sender, instance, created, **kwargs):
    before = instance._place_before
    if created or before != instance.section_id:
        tell_shop(products=[instance.pk], sections=[instance.section_id, before])
    else:
        tell_shop(products=[instance.pk])


@receiver(post_delete, sender=Product)
def product_deleted(sender, instance, **kwargs):
    tell_shop(products=[instance.pk], sections=[instance.section_id])


@receiver(post_save, sender=Section)
@receiver(post_delete, sender=Section)
def section_changed(sender, instance, **kwargs):
    tell_shop(sections=[instance.pk, instance.parent_id, getattr(instance, "_place_before", None)])


@receiver(post_save, sender=Selection)
@receiver(post_delete, sender=Selection)
def selection_changed(sender, instance, **kwargs):
    tell_shop(selections=[instance.pk])


@receiver(m2m_changed, sender=Selection.products.through)
@receiver(m2m_changed, sender=Selection.sections.through)
def selection_members_changed(sender, instance, action, reverse, pk_set, **kwargs):
    """A product or section added to a selection, or taken out: from the selection's side the
    instance is the selection; from the other side the selections are pk_set, or, when all are
    cleared, those it was in."""
    if not reverse:
        if action.startswith("post_"):
            tell_shop(selections=[instance.pk])
    elif action == "pre_clear":
        instance._selections_before = list(instance.selection_set.values_list("pk", flat=True))
    elif action == "post_clear":
        tell_shop(selections=instance._selections_before)
    elif action.startswith("post_"):
        tell_shop(selections=pk_set)


@receiver(post_save, sender=Slide)
@receiver(post_delete, sender=Slide)
def slide_changed(sender, instance, **kwargs):
    tell_shop(slides=True)


@receiver(post_save, sender=NewsPost)
@receiver(post_delete, sender=NewsPost)
def news_changed(sender, instance, **kwargs):
    tell_shop(news=True)


@receiver(post_save, sender=PolicyDocument)
@receiver(post_delete, sender=PolicyDocument)
def policy_changed(sender, instance, **kwargs):
    tell_shop(policy=True)
