// Plausible differences of a DRF backend from the reference one (contracts/django/reference/):
// mistakes real teams make, each a small edit of one file, and harmless differences the pact must
// let through. `npm run contracts:mutants` applies each to a copy, one at a time.

export interface Edit {
  /** The file, relative to contracts/django/reference/. */
  file: string;
  /** Text that occurs exactly once in the file (the run refuses an edit that does not). */
  find: string;
  replace: string;
}

export interface Mutant {
  name: string;
  /** Whether a shopper is meant to notice: false for the harmless differences. */
  breaksShop: boolean;
  /** What a shopper (or the shop) would see. */
  why: string;
  /**
   * What the first failing line of the verification must say of a mistake that breaks the shop:
   * its cause, as a backend developer would look for it (contracts/support/causes.ts).
   */
  cause?: RegExp;
  edits: Edit[];
  /** Its edits change what the seed writes (times, tables): migrate and seed anew. */
  reseeds?: boolean;
}

const SETTINGS = 'berries/settings.py';
const VIEWS = 'shop/views.py';
const SERIALIZERS = 'shop/serializers.py';
const URLS = 'berries/urls.py';

/** Every catalogue route with a trailing slash, as DRF's routers and many projects write them. */
const CATALOG_ROUTES = [
  'product',
  'product_retrieve/<int:pk>',
  'product_search',
  'product_breadcrumbs/<int:pk>',
  'section',
  'section_root',
  'section_retrieve/<int:pk>',
  'section_search',
  'section_breadcrumbs/<int:pk>',
  'selections',
  'selection_retrieve/<int:pk>',
  'basket',
  'basket/<int:pk>',
  'total_price',
  'order_commit',
  'order_history',
];

export const MUTANTS: Mutant[] = [
  {
    name: 'decimals as strings (COERCE_DECIMAL_TO_STRING left on)',
    breaksShop: true,
    why: 'prices and amounts arrive as "890.00": the app computes with them',
    cause:
      /^✗ `\$[^`]*\.(price|rest|unit_step|amount)` should be a number, got the string '\d+\.\d+'$/,
    edits: [
      {
        file: SETTINGS,
        find: '"COERCE_DECIMAL_TO_STRING": False',
        replace: '"COERCE_DECIMAL_TO_STRING": True',
      },
    ],
  },
  {
    name: 'pagination on every list (DEFAULT_PAGINATION_CLASS)',
    breaksShop: true,
    why: 'lists arrive as {"count", "results"}: the home page has no products',
    cause: /^✗ `\$` should be an array, got an object$/,
    edits: [
      {
        file: SETTINGS,
        find: '    "DEFAULT_RENDERER_CLASSES"',
        replace:
          '    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",\n    "PAGE_SIZE": 20,\n    "DEFAULT_RENDERER_CLASSES"',
      },
    ],
  },
  {
    name: 'trailing slashes on the catalogue routes',
    breaksShop: true,
    why: 'GETs are redirected (301), and a POST or PUT without its slash is a 500 (APPEND_SLASH)',
    cause:
      /^✗ `\w+ \/api\/catalog\/\S+` redirects \(301\) to `\/api\/catalog\/\S+\/`: the pact's paths have no trailing slash/,
    edits: CATALOG_ROUTES.map((route) => ({
      file: URLS,
      find: `path("catalog/${route}",`,
      replace: `path("catalog/${route}/",`,
    })),
  },
  {
    name: 'icontains search on SQLite',
    breaksShop: true,
    why: '«черника» finds nothing: SQLite folds only Latin letters',
    cause: /^✗ `\$` should hold at least 1 item, got \[\]$/,
    edits: [
      {
        file: VIEWS,
        find: '        found = matching(Product.objects.all(), request.query_params.get("q", ""))',
        replace:
          '        found = Product.objects.filter(name__icontains=request.query_params.get("q", ""))',
      },
    ],
  },
  {
    name: 'status as its label (get_status_display)',
    breaksShop: true,
    why: 'the order history gets "Создан" where the app maps 0–5 to its labels',
    cause: /^✗ `\$\[\d+\]\.status` should be an integer, got the string '/,
    edits: [
      {
        file: SERIALIZERS,
        find: '    items = OrderItemSerializer(many=True, read_only=True)\n',
        replace:
          '    items = OrderItemSerializer(many=True, read_only=True)\n    status = serializers.CharField(source="get_status_display", read_only=True)\n',
      },
    ],
  },
  {
    name: 'naive times (USE_TZ = False)',
    breaksShop: true,
    why: 'created_ts without an offset: the order shows another hour than it was placed',
    cause: /^✗ `\$\[\d+\]\.created_ts` should be a time with its zone/,
    reseeds: true,
    edits: [
      { file: SETTINGS, find: 'USE_TZ = True', replace: 'USE_TZ = False' },
      // Its seed then writes naive local times too.
      {
        file: 'shop/management/commands/seed.py',
        find: '        today = timezone.localdate()',
        replace: '        today = timezone.now().date()',
      },
      {
        file: 'shop/management/commands/seed.py',
        find: '            created = timezone.make_aware(datetime(day.year, day.month, day.day, hour, minute))',
        replace: '            created = datetime(day.year, day.month, day.day, hour, minute)',
      },
    ],
  },
  {
    name: 'the CSRF cookie never handed out (no ensure_csrf_cookie)',
    breaksShop: true,
    why: 'no visitor gets a csrftoken: every basket change, checkout and login is 403',
    cause: /^✗ CSRF: GET \/api\/catalog\/basket \(HTTP 200\) set no csrftoken cookie/,
    edits: [
      { file: VIEWS, find: '@method_decorator(ensure_csrf_cookie, name="get")\n', replace: '' },
    ],
  },
  {
    name: 'session authentication before token authentication',
    breaksShop: true,
    why: 'a token the backend no longer knows answers 403, not 401: the shop never drops it',
    cause:
      /^✗ answered 403 where the pact expects 401: a token the backend does not know must answer 401/,
    edits: [
      {
        file: SETTINGS,
        find: '        "rest_framework.authentication.TokenAuthentication",\n        "shop.authentication.CsrfSessionAuthentication",',
        replace:
          '        "shop.authentication.CsrfSessionAuthentication",\n        "rest_framework.authentication.TokenAuthentication",',
      },
    ],
  },
  {
    name: 'Idempotency-Key ignored',
    breaksShop: true,
    why: 'a double click places two orders, or its second post gets «В корзине нет доступных товаров»',
    cause:
      /^✗ answered 400 where the pact expects a 2xx \(it said: .*В корзине нет доступных товаров/,
    edits: [
      {
        file: VIEWS,
        find: '        key = request.headers.get("Idempotency-Key")\n        if key is None:',
        replace: '        key = request.headers.get("Idempotency-Key")\n        if True:',
      },
    ],
  },
  {
    name: 'Idempotency-Key not per visitor (one key space for the shop)',
    breaksShop: true,
    why: "another visitor's checkout with the same key gets the first visitor's order",
    cause: /^✗ answered 201 where the pact expects 400/,
    edits: [
      {
        file: VIEWS,
        find: '    return f"user:{who[\'user\'].pk}" if "user" in who else f"session:{who[\'session_key\']}"',
        replace: '    return "shop"',
      },
    ],
  },
  {
    name: 'the total as an object ({"total": …})',
    breaksShop: true,
    why: 'the basket page cannot show its total',
    cause: /^✗ `\$` should be a number, got an object$/,
    edits: [
      {
        file: VIEWS,
        find: '        return Response(total.quantize(Decimal("0.01")))  # a bare number: 1335.0',
        replace: '        return Response({"total": total.quantize(Decimal("0.01"))})',
      },
    ],
  },
  {
    name: 'amounts in an integer field',
    breaksShop: true,
    why: '1,5 кг of raspberries is refused (or rounded): weighed goods cannot be bought',
    cause: /^✗ answered 400 where the pact expects a 2xx \(it said: \{"amount"/,
    edits: [
      {
        file: SERIALIZERS,
        find: '    amount = serializers.DecimalField(max_digits=10, decimal_places=3, min_value=0)',
        replace: '    amount = serializers.IntegerField(min_value=0)',
      },
    ],
  },
  {
    name: 'a missing product answers 200 with null',
    breaksShop: true,
    why: 'the page of a product that is gone renders empty instead of «not found»',
    cause: /^✗ answered 200 where the pact expects 404: what does not exist must answer 404/,
    edits: [
      {
        file: VIEWS,
        find: 'class ProductRetrieve(generics.RetrieveAPIView):\n    queryset = Product.objects.all()\n    serializer_class = s.ProductSerializer\n',
        replace:
          'class ProductRetrieve(generics.RetrieveAPIView):\n    queryset = Product.objects.all()\n    serializer_class = s.ProductSerializer\n\n    def get(self, request, pk):\n        product = Product.objects.filter(pk=pk).first()\n        return Response(s.ProductSerializer(product, context={"request": request}).data if product else None)\n',
      },
    ],
  },
  {
    name: 'photos as file names (use_url off)',
    breaksShop: true,
    why: '"catalog/product-7.jpg" is neither a path nor a URL: no photo loads',
    cause: /^✗ `\$[^`]*\.image` should match `[^`]+`, got 'catalog\/product-\d+\.jpg'$/,
    edits: [
      {
        file: SETTINGS,
        find: '    "COERCE_DECIMAL_TO_STRING": False,',
        replace: '    "COERCE_DECIMAL_TO_STRING": False,\n    "UPLOADED_FILES_USE_URL": False,',
      },
    ],
  },
  {
    name: 'X-Forwarded-Host not used (USE_X_FORWARDED_HOST off)',
    breaksShop: true,
    why: "Django's HTTPS Referer check compares the shop's name with its own: every form the server posts is 403",
    cause: /^✗ 403 on a write: Django's CSRF check refused the shop's Referer/,
    edits: [
      {
        file: SETTINGS,
        find: 'USE_X_FORWARDED_HOST = True',
        replace: 'USE_X_FORWARDED_HOST = False',
      },
    ],
  },

  {
    name: 'the CSRF cookie HttpOnly (CSRF_COOKIE_HTTPONLY = True)',
    breaksShop: true,
    why: 'the app in the browser cannot read csrftoken: every basket change and checkout it sends is 403',
    cause: /^✗ CSRF: GET \/api\/catalog\/basket set the csrftoken cookie HttpOnly/,
    edits: [
      {
        file: SETTINGS,
        find: 'CSRF_COOKIE_HTTPONLY = False',
        replace: 'CSRF_COOKIE_HTTPONLY = True',
      },
    ],
  },

  // Harmless: the pact must let these through.
  {
    name: 'harmless: an extra field on products',
    breaksShop: false,
    why: 'the app reads only its fields',
    edits: [
      {
        file: SERIALIZERS,
        find: '        fields = ["id", "name", "image", "unit", "unit_step", "price", "rest", "available"]',
        replace:
          '        fields = ["id", "name", "image", "unit", "unit_step", "price", "rest", "available", "section"]',
      },
    ],
  },
  {
    name: 'harmless: a charset in the content type',
    breaksShop: false,
    why: 'application/json; charset=utf-8 is JSON',
    edits: [
      {
        file: SETTINGS,
        find: '    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],',
        replace: '    "DEFAULT_RENDERER_CLASSES": ["shop.middleware.CharsetJSONRenderer"],',
      },
      {
        // Not in views.py: DRF imports its renderers while views.py is being imported.
        file: 'shop/middleware.py',
        find: 'import ipaddress\n',
        replace:
          'import ipaddress\n\nfrom rest_framework.renderers import JSONRenderer\n\n\nclass CharsetJSONRenderer(JSONRenderer):\n    charset = "utf-8"\n',
      },
    ],
  },
  {
    name: 'harmless: another order of keys',
    breaksShop: false,
    why: 'JSON objects have no order',
    edits: [
      {
        file: SERIALIZERS,
        find: '        fields = ["id", "name", "image", "unit", "unit_step", "price", "rest", "available"]',
        replace:
          '        fields = ["available", "rest", "price", "unit_step", "unit", "image", "name", "id"]',
      },
    ],
  },
  {
    name: 'harmless: 201 on upsert (a PUT that creates a line)',
    breaksShop: false,
    why: 'any 2xx is a success',
    edits: [
      {
        file: VIEWS,
        find: '            line, _ = BasketLine.objects.update_or_create(\n                product=product, defaults={"amount": amount}, **who\n            )\n        return Response(s.BasketLineSerializer(line, context={"request": request}).data)',
        replace:
          '            line, created = BasketLine.objects.update_or_create(\n                product=product, defaults={"amount": amount}, **who\n            )\n            if created:\n                return Response(s.BasketLineSerializer(line, context={"request": request}).data, status=201)\n        return Response(s.BasketLineSerializer(line, context={"request": request}).data)',
      },
    ],
  },
  {
    name: 'harmless: DELETE answers 200 with a body',
    breaksShop: false,
    why: 'any 2xx is a success, its body unread',
    edits: [
      {
        file: VIEWS,
        find: '        basket_lines(request).filter(product=product).delete()\n        return Response(status=status.HTTP_204_NO_CONTENT)',
        replace:
          '        basket_lines(request).filter(product=product).delete()\n        return Response({"deleted": True})',
      },
    ],
  },
  {
    name: 'harmless: DELETE answers 200 with no body (DRF Response(status=200))',
    breaksShop: false,
    why: 'an empty body is nothing to run or read, whatever its type',
    edits: [
      {
        file: VIEWS,
        find: '        basket_lines(request).filter(product=product).delete()\n        return Response(status=status.HTTP_204_NO_CONTENT)',
        replace:
          '        basket_lines(request).filter(product=product).delete()\n        return Response(status=status.HTTP_200_OK)',
      },
    ],
  },
  {
    name: 'harmless: DELETE answers 200 with an empty HttpResponse',
    breaksShop: false,
    why: 'an empty text/html body is nothing to run or read',
    edits: [
      {
        file: VIEWS,
        find: '        basket_lines(request).filter(product=product).delete()\n        return Response(status=status.HTTP_204_NO_CONTENT)',
        replace:
          '        basket_lines(request).filter(product=product).delete()\n        return HttpResponse(status=200)',
      },
      {
        file: VIEWS,
        find: 'from django.db import IntegrityError, transaction\n',
        replace:
          'from django.db import IntegrityError, transaction\nfrom django.http import HttpResponse\n',
      },
    ],
  },
  {
    name: 'harmless: wrong credentials answer 401 (another token backend)',
    breaksShop: false,
    why: 'the login page reads 400 and a tokenless 401 alike: «Неверный логин или пароль»',
    edits: [
      {
        file: VIEWS,
        find: '        serializer = self.get_serializer(data=request.data)\n        serializer.is_valid(raise_exception=True)',
        replace:
          '        serializer = self.get_serializer(data=request.data)\n        if not serializer.is_valid():\n            return Response({"detail": "Неверные данные"}, status=401)',
      },
    ],
  },
];
