from django.conf import settings
from django.urls import include, path, re_path
from django.views.static import serve

from shop import views

api = [
    path("catalog/product", views.HomeProducts.as_view()),
    path("catalog/product_retrieve/<int:pk>", views.ProductRetrieve.as_view()),
    path("catalog/product_search", views.ProductSearch.as_view()),
    path("catalog/product_breadcrumbs/<int:pk>", views.ProductBreadcrumbs.as_view()),
    path("catalog/section", views.HomeSections.as_view()),
    path("catalog/section_root", views.RootSections.as_view()),
    path("catalog/section_retrieve/<int:pk>", views.SectionRetrieve.as_view()),
    path("catalog/section_search", views.SectionSearch.as_view()),
    path("catalog/section_breadcrumbs/<int:pk>", views.SectionBreadcrumbs.as_view()),
    path("catalog/selections", views.Selections.as_view()),
    path("catalog/selection_retrieve/<int:pk>", views.SelectionRetrieve.as_view()),
    path("catalog/basket", views.Basket.as_view()),
    path("catalog/basket/<int:pk>", views.BasketLineView.as_view()),
    path("catalog/total_price", views.TotalPrice.as_view()),
    path("catalog/order_commit", views.OrderCommit.as_view()),
    path("catalog/order_history", views.OrderHistory.as_view()),
    path("content/policy", views.Policy.as_view()),
    path("content/carousel", views.Carousel.as_view()),
    path("telegram/news", views.News.as_view()),
    path("auth/token/", views.ObtainToken.as_view()),
    path("auth/user/me/", views.Me.as_view()),
]

urlpatterns = [
    path("api/", include(api)),
    # Photos and the policy PDF. django.conf.urls.static() would serve them only with DEBUG on;
    # this backend serves them always (a production site leaves this to its web server).
    re_path(r"^media/(?P<path>.+)$", serve, {"document_root": settings.MEDIA_ROOT}),
]

# Only when asked (serve.ts, the contract test): the view writes without authentication.
if settings.PACT_PROVIDER_STATES:
    from shop import pact_states

    urlpatterns += [path("_pact/provider-states", pact_states.provider_state)]
