"""Forms of the import pages (issue 16): the upload of a file, its confirmation, and deleting
an evening. Shape checks only: what a file holds is checked by the reader that imports it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from scoring.models import Club, Evening, PendingImport, Season

MAX_ID = 2**63 - 1


class UploadForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("What the file holds"), widget=forms.RadioSelect, initial="json",
        choices=[
            ("json", _("An evening or a whole club, exported from Skatclub (JSON)")),
            (PendingImport.Kind.TOTALS, _("A season played on paper: each player's points, "
                                          "games won and lost per evening (CSV)")),
            (PendingImport.Kind.SHEET, _("A score sheet, deal by deal, as Skatclub writes it "
                                         "as CSV: added to an evening as a table")),
        ])
    file = forms.FileField(label=_("File"))
    season = forms.ModelChoiceField(
        label=_("Season"), queryset=Season.objects.none(), required=False,
        help_text=_("For a season on paper: the season its evenings belong to."))

    evening = forms.ModelChoiceField(
        label=_("Evening"), queryset=Evening.objects.none(), required=False,
        help_text=_("For a score sheet: the evening it is added to (an open one; make it "
                    "first with the rules the sheet was played by)."))

    def __init__(self, *args: Any, club: Club, max_bytes: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.max_bytes = max_bytes
        season = self.fields["season"]
        assert isinstance(season, forms.ModelChoiceField)
        season.queryset = Season.objects.filter(club=club).order_by("-start")
        evening = self.fields["evening"]
        assert isinstance(evening, forms.ModelChoiceField)
        evening.queryset = Evening.objects.filter(club=club, closed=False).order_by("-date",
                                                                                 "-id")

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > self.max_bytes:
            raise forms.ValidationError(
                _("The file is too large (%(size)s); at most %(limit)s can be uploaded.") % {
                    "size": filesizeformat(upload.size), "limit": filesizeformat(self.max_bytes)})
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") == PendingImport.Kind.TOTALS and not data.get("season"):
            self.add_error("season", _("Choose the season the totals belong to."))
        if data.get("kind") == PendingImport.Kind.SHEET and not data.get("evening"):
            self.add_error("evening", _("Choose the evening the score sheet is added to."))
        return data


class ConfirmForm(forms.Form):
    """The confirmation of a held file; for each rule profile of the file that the club has
    under the same name with other rules (uploads.Preview.clashes): take the file's under
    another name (prefilled "<name> (Import)"), or keep the club's own."""

    digest = forms.RegexField(regex=r"^[0-9a-f]{64}$", widget=forms.HiddenInput)

    TAKE = "take"
    KEEP = "keep"

    def __init__(self, *args: Any, clashes: list[dict[str, Any]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clashes = clashes or []
        for index, clash in enumerate(self.clashes):
            self.fields[f"profile_{index}"] = forms.ChoiceField(
                label=_("Rule profile %(name)s") % {"name": clash["name"]},
                widget=forms.RadioSelect, initial=self.TAKE, choices=[
                    (self.TAKE, _("Take the file's profile under another name")),
                    (self.KEEP, _("Keep the club's profile %(name)s; the file's is not "
                                  "taken") % {"name": clash["name"]})])
            self.fields[f"name_{index}"] = forms.CharField(
                label=_("New name"), max_length=100, required=False,
                initial=clash["suggested"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for index, clash in enumerate(self.clashes):
            if data.get(f"profile_{index}") != self.TAKE:
                continue
            name = (data.get(f"name_{index}") or "").strip()
            if not name:
                self.add_error(f"name_{index}", _("Give the file's profile a name."))
            elif name == clash["name"]:
                self.add_error(f"name_{index}", _("The club has a profile of this name "
                                                  "already; choose another."))
            data[f"name_{index}"] = name
        return data

    def profiles(self) -> dict[str, str]:
        """What uploads.confirm takes: file's profile name → the name to take it under, or
        "" to keep the club's."""
        return {clash["name"]: (self.cleaned_data[f"name_{index}"]
                                if self.cleaned_data[f"profile_{index}"] == self.TAKE else "")
                for index, clash in enumerate(self.clashes)}

    def clash_fields(self) -> list[tuple[dict[str, Any], Any, Any]]:
        return [(clash, self[f"profile_{index}"], self[f"name_{index}"])
                for index, clash in enumerate(self.clashes)]


class DeleteEveningForm(forms.Form):
    reason = forms.CharField(label=_("Why (for the club's log)"), max_length=500,
                             required=False)
    sure = forms.BooleanField(label=_("Yes, delete this evening with everything listed"),
                              required=True)


__all__ = ["MAX_ID", "ConfirmForm", "DeleteEveningForm", "UploadForm"]
