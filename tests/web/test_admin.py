"""The admin page in the browser: an account without the role is refused; an admin resolves a
report, disables and enables an account, adds a refused word, and sees each in the audit log; and
a chat message an admin removes leaves the table's page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from parlour.server.features.admin_recovery import grant_from_command_line
from parlour.server.settings import database_url

from .conftest import Server, screenshot

PASSWORD = "correct horse battery"


def signed_up(server: Server, name: str) -> tuple[httpx.Client, dict[str, str]]:
    client = httpx.Client(base_url=server.url, timeout=30)
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client, {"X-CSRF-Token": answer.json()["csrf_token"]}


def sign_in_page(page: Any, server: Server, name: str) -> None:
    page.goto(f"{server.url}/?account")
    page.fill("#signin-name", name)
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#signed-in-as")


def test_the_admin_page(server: Server, open_page: Callable[..., Any], browser: Any) -> None:
    reporter, headers = signed_up(server, "webreporter")
    signed_up(server, "webtroll")[0].close()
    signed_up(server, "webadmin")[0].close()
    grant_from_command_line(database_url(str(server.db)), "webadmin", True)
    table = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["human", "human"]}).json()["id"]
    seat = server.http.post(f"/api/tables/{table}/join", json={"name": "Troll"}).json()
    said = server.http.post(
        f"/api/tables/{table}/chat",
        json={"text": "you all stink"},
        headers={"Authorization": f"Bearer {seat['token']}"},
    ).json()
    made = reporter.post(
        "/api/reports", json={"table": table, "message": said["id"], "reason": "rude"}, headers=headers
    )
    assert made.status_code == 201, made.text

    # Refusals in a context of their own: the browser logs a 403 or 422 answer as a console error.
    context = browser.new_context()
    refused = context.new_page()
    sign_in_page(refused, server, "webreporter")
    refused.goto(f"{server.url}/?admin")
    refused.wait_for_selector("#admin-refused")
    assert "admin role" in refused.inner_text("#admin-refused")
    context.close()

    page = open_page(f"{server.url}/")
    sign_in_page(page, server, "webadmin")
    watcher = open_page(f"{server.url}/?table={table}&watch=1")
    watcher.wait_for_selector(f"#chat-log [data-id='{said['id']}']")
    page.goto(f"{server.url}/?admin")
    page.wait_for_selector("#admin-reports .report")
    assert "you all stink" in page.inner_text("#admin-reports .report-context .reported")
    screenshot(page, "admin")
    page.fill("#admin-reports .resolution", "message removed")
    page.click("#admin-reports .resolve")
    page.wait_for_selector("#no-reports")
    page.fill("#admin-find", "webtroll")
    page.wait_for_selector("#admin-accounts li.account[data-name='webtroll']")
    page.wait_for_function("document.querySelectorAll('#admin-accounts li.account').length === 1")
    page.fill("#admin-accounts .reason", "insults")
    page.click("#admin-accounts .disable")
    page.wait_for_selector("#admin-accounts .enable")
    assert "disabled: insults" in page.inner_text("#admin-accounts li.account")
    page.click("#admin-accounts .enable")
    page.wait_for_selector("#admin-accounts .disable")
    page.fill("#new-word", "Stink")
    page.click("#add-word")
    page.wait_for_selector("#admin-words li[data-word='stink']")
    page.wait_for_selector("#admin-audit li[data-action='add_word']")
    actions = page.locator("#admin-audit li").evaluate_all("items => items.map(i => i.dataset.action)")
    assert actions[:4] == ["add_word", "enable", "disable", "resolve_report"]
    # A bad word is refused on the page, and nothing is added.
    context = browser.new_context()
    wrong = context.new_page()
    sign_in_page(wrong, server, "webadmin")
    wrong.goto(f"{server.url}/?admin")
    wrong.fill("#new-word", "two  words!")
    wrong.click("#add-word")
    wrong.wait_for_selector("#admin-words .status.error")
    assert "a refused word is" in wrong.inner_text("#admin-words .status")
    assert wrong.locator("#admin-words li").count() == 1
    context.close()
    # The removed message leaves the table's page at once.
    admin = httpx.Client(base_url=server.url, timeout=30)
    answer = admin.post("/api/account/signin", json={"name": "webadmin", "password": PASSWORD})
    admin_headers = {"X-CSRF-Token": answer.json()["csrf_token"]}
    assert admin.delete(f"/api/admin/tables/{table}/chat/{said['id']}", headers=admin_headers).status_code == 200
    watcher.wait_for_selector(f"#chat-log [data-id='{said['id']}']", state="detached")
    admin.close()
    reporter.close()


def test_a_reader_reports_a_message_and_blocks_its_writer(
    server: Server, open_page: Callable[..., Any], browser: Any
) -> None:
    writer, headers = signed_up(server, "webwriter")
    signed_up(server, "webreader")[0].close()
    table = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["human", "human"]}).json()["id"]
    seat = writer.post(f"/api/tables/{table}/join", json={"name": "Writer"}, headers=headers).json()
    bearer = {"Authorization": f"Bearer {seat['token']}"}
    first = server.http.post(f"/api/tables/{table}/chat", json={"text": "rude words"}, headers=bearer).json()
    page = open_page(f"{server.url}/")
    sign_in_page(page, server, "webreader")
    page.goto(f"{server.url}/?table={table}&watch=1")
    page.wait_for_selector(f"#chat-log [data-id='{first['id']}'] .chat-report")
    page.once("dialog", lambda dialog: dialog.accept("insulting"))
    page.click(f"#chat-log [data-id='{first['id']}'] .chat-report")
    page.wait_for_selector("#chat-status:text('Reported')")
    admin = signed_up(server, "webmoderator")[0]
    grant_from_command_line(database_url(str(server.db)), "webmoderator", True)
    queue = admin.get("/api/admin/reports").json()["reports"]
    assert [(r["reporter"], r["message"], r["reason"]) for r in queue if r["reporter"] == "webreader"] == [
        ("webreader", first["id"], "insulting")
    ]
    page.click(f"#chat-log [data-id='{first['id']}'] .chat-block")
    page.wait_for_selector("#chat-status:text('You blocked webwriter')")
    page.wait_for_selector(f"#chat-log [data-id='{first['id']}']", state="detached")
    second = server.http.post(f"/api/tables/{table}/chat", json={"text": "more"}, headers=bearer).json()
    other = open_page(f"{server.url}/?table={table}&watch=1")  # a guest still reads everything
    other.wait_for_selector(f"#chat-log [data-id='{second['id']}']")
    assert page.query_selector(f"#chat-log [data-id='{second['id']}']") is None
    assert other.query_selector(".chat-report") is None  # a guest has nobody to report as
    admin.close()
    writer.close()
