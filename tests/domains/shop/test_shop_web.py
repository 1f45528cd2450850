"""The shop web site: pages with semantic ids, the chat widget endpoint, user APIs, bad input."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from vistasim.domains import get_domain
from vistasim.domains.shop import ShopEnvironment
from vistasim.domains.shop._web import create_app

TABLES = ["customers", "orders", "order_items", "variants", "refunds", "cart_items", "exchanges"]


@pytest.fixture
def env() -> ShopEnvironment:
    return ShopEnvironment()


@pytest.fixture
def client(env) -> TestClient:
    return TestClient(create_app(env))


@pytest.fixture
def priya(client) -> TestClient:
    client.post("/login", data={"email": "priya.shah@example.com"})
    return client


def dump(env: ShopEnvironment) -> dict:
    return {t: sorted(tuple(r) for r in env.db.execute(f"SELECT * FROM {t}")) for t in TABLES}


PUBLIC_PAGES = {"/": "search-input", "/product/P035": "add-to-cart", "/login": "login-email"}
PRIVATE_PAGES = {
    "/cart": "nav-cart",
    "/checkout": "place-order",
    "/orders": "order-link-W1007",
    "/orders/W1007": "return-submit",
    "/orders/W1006": "order-status",
    "/account": "logout",
}


@pytest.mark.parametrize(("path", "control"), PUBLIC_PAGES.items())
def test_public_pages_render_controls_and_chat_widget(client, path, control):
    response = client.get(path)
    assert response.status_code == 200
    assert f'data-semantic-id="{control}"' in response.text
    assert 'data-semantic-id="chat-input"' in response.text


@pytest.mark.parametrize(("path", "control"), PRIVATE_PAGES.items())
def test_account_pages_render_for_a_logged_in_customer(priya, path, control):
    response = priya.get(path)
    assert response.status_code == 200
    assert f'data-semantic-id="{control}"' in response.text
    assert 'data-semantic-id="chat-send"' in response.text


@pytest.mark.parametrize("path", PRIVATE_PAGES)
def test_account_pages_redirect_to_login(client, path):
    response = client.get(path, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")


def test_every_button_link_and_field_has_a_semantic_id(priya):
    import re

    for path in [*PUBLIC_PAGES, *PRIVATE_PAGES]:
        html = priya.get(path).text
        for tag in re.findall(r"<(?:button|select|a|input)\b[^>]*>", html):
            if 'type="hidden"' not in tag:
                assert "data-semantic-id" in tag, (path, tag)


def test_catalog_search_filters_products(client):
    html = client.get("/", params={"q": "blender"}).text
    assert "Aurora Blender" in html and "Trail Daypack" not in html


def test_order_page_offers_cancel_only_while_open(client):
    client.post("/login", data={"email": "miguel.alvarez@example.com"})
    assert 'data-semantic-id="cancel-order"' in client.get("/orders/W1003").text
    assert 'data-semantic-id="cancel-order"' not in client.get("/orders/W1004").text


def test_cancel_button_cancels_and_refunds(client, env):
    client.post("/login", data={"email": "miguel.alvarez@example.com"})
    response = client.post("/orders/W1003/cancel")
    assert response.status_code == 200 and "has been cancelled" in response.text
    assert env.select("orders", {"id": "W1003"})[0]["status"] == "cancelled"


def test_return_form_opens_a_return(priya, env):
    data = {"sku": ["P035-RED", "P053-RED"], "reason": "too small", "refund_to": "gift_card"}
    assert priya.post("/orders/W1007/return", data=data).status_code == 200
    assert {r["status"] for r in env.select("order_items", {"order_id": "W1007"})} == {
        "return_requested"
    }


def test_policy_refusal_shows_the_reason_and_changes_nothing(client, env):
    client.post("/login", data={"email": "theo.baker@example.com"})
    before = dump(env)
    response = client.post("/orders/W1062/return", data={"sku": "P009-4PACK", "reason": "meh"})
    assert response.status_code == 409 and "final-sale" in response.text
    assert dump(env) == before


def test_other_customers_orders_are_not_found(priya, env):
    assert priya.get("/orders/W1003").status_code == 404
    assert priya.post("/orders/W1003/cancel").status_code == 404
    assert env.select("orders", {"id": "W1003"})[0]["status"] == "pending"


def test_cart_and_checkout_place_an_order(priya, env):
    priya.post("/cart/add", data={"sku": "P001-BLACK", "quantity": "2"})
    assert "Aurora Blender" in priya.get("/cart").text
    response = priya.post("/checkout", data={"payment_method_id": "PM2005"})
    assert response.url.path == "/orders/W1086"
    assert env.select("orders", {"id": "W1086"})[0]["customer_id"] == "C1003"


def test_login_with_unknown_email_is_refused(client):
    response = client.post("/login", data={"email": "ghost@example.com"})
    assert response.status_code == 404 and "ghost@example.com" in response.text


def test_chat_replies_with_tool_calls_and_a_session_cookie(client):
    response = client.post("/api/chat", json={"message": "where is W1006? priya.shah@example.com"})
    body = response.json()
    assert "expected by 2026-03-18" in body["reply"]
    assert [c["name"] for c in body["tool_calls"]] == ["find_customer", "get_order"]
    assert "shop_session" in response.cookies


def test_each_session_has_its_own_agent(env):
    first, second = TestClient(create_app(env)), TestClient(create_app(env))
    first.post("/api/chat", json={"message": "I want to cancel an order"})
    reply = second.post("/api/chat", json={"message": "miguel.alvarez@example.com"}).json()
    assert reply["reply"].startswith("Hi!")  # no cancellation request in this session


def test_chat_and_site_share_the_database(client, env):
    client.post("/api/chat", json={"message": "cancel W1003, miguel.alvarez@example.com"})
    client.post("/api/chat", json={"message": "yes"})
    client.post("/login", data={"email": "miguel.alvarez@example.com"})
    assert 'data-semantic-id="order-status">cancelled' in client.get("/orders/W1003").text


def test_chat_uses_the_given_agent_factory(env):
    from vistasim.agent import Reply

    class Echo:
        async def respond(self, turn):
            return Reply(text=f"echo: {turn.message}")

    client = TestClient(get_domain("shop").make_web_app(env, Echo))
    assert client.post("/api/chat", json={"message": "hi"}).json()["reply"] == "echo: hi"


def test_user_apis_are_listed_and_callable(client):
    names = {spec["name"] for spec in client.get("/api/user").json()}
    assert {"track_shipment", "check_refund_status"} <= names
    response = client.post("/api/user/track_shipment", json={"order_id": "W1006"})
    assert response.json()["result"]["eta"] == "2026-03-18"


def test_user_api_fills_in_the_logged_in_customer(priya, env):
    response = priya.post("/api/user/add_to_cart", json={"sku": "P001-BLACK"})
    assert response.status_code == 200
    assert env.select("cart_items", {"customer_id": "C1003"})[0]["sku"] == "P001-BLACK"


def test_user_api_failure_is_a_clear_4xx(client):
    response = client.post("/api/user/track_shipment", json={"order_id": "W1003"})
    assert response.status_code == 409 and "no shipment" in response.json()["error"]


BAD_API_REQUESTS = [
    ("/api/user/track_shipment", b"{not json", 400),
    ("/api/user/track_shipment", b"[1, 2]", 400),
    ("/api/user/track_shipment", b'{"order_id": "W1006\' OR 1=1 --"}', 422),
    ("/api/user/no_such_api", b"{}", 404),
    ("/api/user/cancel_my_order", b'{"customer_id": "C1001", "order_id": "W1003"}', 404),
    ("/api/user/checkout", b'{"customer_id": "C1003", "payment_method_id": "PM2005"}', 409),
    ("/api/user/add_to_cart", b'{"customer_id": "C1003", "sku": "' + b"x" * 100_000 + b'"}', 413),
    ("/api/chat", b'{"message": ""}', 422),
    ("/api/chat", b'{"message": "' + b"a" * 5000 + b'"}', 413),
    ("/api/chat", b"null", 400),
]


@pytest.mark.parametrize(("path", "body", "status"), BAD_API_REQUESTS)
def test_bad_api_input_gets_a_clear_error_and_changes_nothing(client, env, path, body, status):
    before = dump(env)
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert response.json()["error"]
    assert dump(env) == before


BAD_PAGE_REQUESTS = [
    ("get", "/product/P999", None, 404),
    ("get", "/product/P001'; DROP TABLE products;--", None, 422),
    ("get", "/orders/W9999", None, 404),
    ("get", "/orders/1 OR 1=1", None, 404),
    ("post", "/cart/add", {"sku": "NOPE", "quantity": "1"}, 404),
    ("post", "/cart/add", {"sku": "P001-BLACK", "quantity": "many"}, 422),
    ("post", "/orders/W1007/return", {"sku": "P035-RED", "reason": "x" * 600}, 422),
    ("post", "/orders/W1006/cancel", None, 409),
]


@pytest.mark.parametrize(("method", "path", "data", "status"), BAD_PAGE_REQUESTS)
def test_bad_page_input_shows_an_error_page_and_changes_nothing(
    priya, env, method, path, data, status
):
    before = dump(env)
    response = getattr(priya, method)(path, data=data) if data else getattr(priya, method)(path)
    assert response.status_code == status
    assert 'data-semantic-id="error-message"' in response.text
    assert dump(env) == before


def test_untrusted_text_is_escaped(priya, env):
    env.db.execute("UPDATE customers SET name = '<script>alert(1)</script>' WHERE id = 'C1003'")
    html = priya.get("/account", params={"msg": "<img src=x onerror=alert(2)>"}).text
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html
    assert "<img src=x" not in html


def test_static_chat_widget_sets_text_not_html(client):
    script = client.get("/static/chat.js").text
    assert "textContent" in script and "innerHTML" not in script


def test_chat_passes_the_sessions_history_to_the_agent(env):
    from vistasim.agent import Reply

    seen = []

    class Recorder:
        def respond(self, turn):
            seen.append([u.text for u in turn.history])
            return Reply(text=f"echo {turn.message}")

    client = TestClient(create_app(env, Recorder))
    client.post("/api/chat", json={"message": "one"})
    client.post("/api/chat", json={"message": "two"})
    assert seen == [[], ["one", "echo one"]]
