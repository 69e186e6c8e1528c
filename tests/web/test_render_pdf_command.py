"""`manage.py render_pdf sheet|settlement|summary --evening ID [--table N] -o FILE`."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from . import pdfs
from .factories import make_club
from .money_fixtures import engine_tables, money_evening

pytestmark = [pytest.mark.django_db, pdfs.needs_poppler]


def test_prints_each_document_to_a_file(tmp_path: Path) -> None:
    club = make_club()
    evening = money_evening(club)
    (first, names, result), _second = engine_tables(evening)
    err = io.StringIO()
    for kind, extra in (("sheet", ["--table", "1"]), ("settlement", []), ("summary", [])):
        out = tmp_path / f"{kind}.pdf"
        call_command("render_pdf", kind, "--evening", str(evening.pk), *extra, "-o", str(out),
                     "--lang", "en", stderr=err)
        assert pdfs.pages(out.read_bytes()) >= 1
    assert "sheet.pdf:" in err.getvalue()
    text = pdfs.text((tmp_path / "sheet.pdf").read_bytes())
    assert pdfs.numbers(pdfs.line_starting(text, "Total")) == [
        str(result["totals"][str(p)]) for p in range(len(names))]
    assert "Jürgen Weiß" in text
    historical = tmp_path / "book.pdf"
    call_command("render_pdf", "sheet", "--evening", str(evening.pk), "--table", "2",
                 "--layout", "historical", "-o", str(historical), "--no-cache", stderr=err)
    assert "Zoë Brühl" in pdfs.text(historical.read_bytes())


def test_writes_to_standard_output(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    club = make_club()
    evening = money_evening(club)
    call_command("render_pdf", "summary", "--evening", str(evening.pk), "-o", "-")
    assert capsysbinary.readouterr().out.startswith(b"%PDF-")


@pytest.mark.parametrize(("args", "message"), [
    (["sheet"], "Say which table: --table N (this evening has 1, 2)"),
    (["sheet", "--table", "7"], "has no table 7"),
    (["summary", "--table", "1"], "--table belongs to the sheet"),
    (["settlement", "--layout", "historical"], "--layout belongs to the sheet"),
])
def test_bad_arguments_say_what_is_wrong(tmp_path: Path, args: list[str], message: str) -> None:
    club = make_club()
    evening = money_evening(club)
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call_command("render_pdf", *args, "--evening", str(evening.pk), "-o",
                     str(tmp_path / "x.pdf"))
    assert not (tmp_path / "x.pdf").exists()


def test_an_unknown_evening(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no evening with id 999"):
        call_command("render_pdf", "summary", "--evening", "999", "-o", str(tmp_path / "x"))
