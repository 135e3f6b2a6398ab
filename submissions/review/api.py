"""The token API of the per-entry decisions: read a submission's decisions, take one (the submitter
withdraws their own before publication; the committee excludes, moves, withdraws after publication
and marks duplicates). Parses input, calls the one service, answers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from registry.models import Release
from submissions.archives import ArchiveStorageUnavailable
from submissions.json_input import clip
from submissions.models import (
    EntryDecision,
    ListCategory,
    Reproducibility,
    ReviewComment,
    Submission,
    SubmissionRevision,
)
from submissions.review.api_base import SubmissionStepApi
from submissions.review.decisions import entry_decisions
from submissions.review.models import QUESTIONNAIRE_SECTIONS
from submissions.review.questionnaire import MAX_ANSWER_CHARS
from submissions.review.selectors import questionnaire_get, review_comment_list
from submissions.review.services import (
    COMMITTEE_DECISIONS,
    MAX_COMMENT_CHARS,
    SYSTEM_LABELS,
    comment_add,
    entry_decision_revoke,
    entry_decision_take,
    questionnaire_record,
    submission_accept,
    submission_assess,
    submission_replace,
    submission_submit,
    submission_withdraw,
    system_description_edit,
)
from submissions.serializers import SubmissionCreatedSerializer, SubmissionSummarySerializer
from submissions.system.description import COUNT_FIELDS, FORM_FIELD_NAMES, MAX_TEXT, NETWORK_FIELD
from submissions.system.files import MAX_PROBLEMS_LISTED
from submissions.system.hardware_fields import QUANTITY_FIELDS
from submissions.throttles import UploadThrottle

_ERROR = inline_serializer(
    name="EntryDecisionError",
    fields={"detail": serializers.CharField(help_text="Why the decision was refused.")},
)


class EntryDecisionSerializer(serializers.ModelSerializer[EntryDecision]):
    actor = serializers.SerializerMethodField()
    release: serializers.SlugRelatedField[Release] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    from_release: serializers.SlugRelatedField[Release] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    summary = serializers.CharField(read_only=True)

    class Meta:
        model = EntryDecision
        fields = [
            "id",
            "kind",
            "reason",
            "list_kind",
            "release",
            "from_release",
            "duplicate_of",
            "actor",
            "created_at",
            "summary",
            "revoked_at",
            "revoked_by",
            "revoke_reason",
        ]

    def get_actor(self, decision: EntryDecision) -> str:
        return decision.actor.get_username() if decision.actor else ""

    revoked_by = serializers.SerializerMethodField()

    def get_revoked_by(self, decision: EntryDecision) -> str:
        return decision.revoked_by.get_username() if decision.revoked_by else ""


class EntryDecisionCreateSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.ChoiceField(choices=EntryDecision.Kind.choices)
    reason = serializers.CharField(max_length=10_000)
    list_kind = serializers.CharField(required=False, default="", allow_blank=True, max_length=32)
    release = serializers.SlugRelatedField(
        slug_field="slug", queryset=Release.objects.all(), required=False, allow_null=True, default=None
    )
    duplicate_of = serializers.PrimaryKeyRelatedField(
        queryset=Submission.objects.all(), required=False, allow_null=True, default=None
    )


class EntryDecisionApi(SubmissionStepApi):
    """A submission's per-entry decisions, oldest first; POST takes one (a reason is required)."""

    serializer_class = EntryDecisionSerializer

    def get(self, request: Request, pk: int) -> Response:
        _user, submission = self.submission(request, pk, followers_only="see its decisions")
        rows = entry_decisions(submission=submission)
        return Response(EntryDecisionSerializer(rows, many=True).data)

    @extend_schema(
        request=EntryDecisionCreateSerializer,
        responses={
            201: EntryDecisionSerializer,
            400: OpenApiResponse(_ERROR, description="The decision does not fit the submission's state."),
            403: OpenApiResponse(_ERROR, description="Not yours to take (the committee's, or another's)."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        user, submission = self.submission(request, pk)
        data = self.form(request, EntryDecisionCreateSerializer)
        decision = entry_decision_take(
            user=user,
            submission=submission,
            kind=data["kind"],
            reason=data["reason"],
            list_kind=data["list_kind"],
            release=data["release"],
            duplicate_of=data["duplicate_of"],
        )
        return Response(EntryDecisionSerializer(decision).data, status=status.HTTP_201_CREATED)


# The review workflow by token: the submitter fixes and submits, the committee decides. Each view
# calls the service the web pages call, so the API and the pages refuse and record alike
# (submissions.review.api_base).


_REFUSALS = {
    400: OpenApiResponse(_ERROR, description="The step does not fit the submission's state, or the input."),
    403: OpenApiResponse(_ERROR, description="Not yours to take (the committee's, or another's)."),
}


class SubmitSerializer(serializers.Serializer[dict[str, Any]]):
    reviewed = serializers.BooleanField(help_text="You have reviewed your submission.")
    followed_rules = serializers.BooleanField(help_text="You have read and followed the IO500 rules.")
    permission_to_publish = serializers.BooleanField(help_text="You grant IO500 permission to publish it.")
    release = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Release.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="The release it is submitted to, when not chosen at upload.",
    )
    anonymous = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="Publish without the submitter's name."
    )


class SubmitApi(SubmissionStepApi):
    """Submit your verified upload for review (from draft, or again after changes were requested)."""

    serializer_class = SubmitSerializer

    @extend_schema(request=SubmitSerializer, responses={200: SubmissionSummarySerializer, **_REFUSALS})
    def post(self, request: Request, pk: int) -> Response:
        user, submission = self.submission(request, pk)
        data = self.form(request, SubmitSerializer)
        row = submission_submit(user=user, submission=submission, **data)
        return Response(SubmissionSummarySerializer(row, context={"request": request}).data)


class ReviewDecisionSerializer(serializers.Serializer[dict[str, Any]]):
    action = serializers.ChoiceField(
        choices=sorted(COMMITTEE_DECISIONS),
        help_text="start_review, accept, request_changes or reject (the last two need a reason).",
    )
    reason = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=MAX_COMMENT_CHARS,
        help_text="Sent to the submitter with the decision.",
    )
    gap_phases = serializers.ListField(
        child=serializers.CharField(max_length=64),
        required=False,
        allow_null=True,
        default=None,
        max_length=64,
        help_text=(
            "accept only: accept the run although these scored phases lack their raw outputs, named "
            "exactly as the submission's evidence_basis.summary_only_phases lists them."
        ),
    )


class ReviewDecisionApi(SubmissionStepApi):
    """The committee's review decision on a submission: start the review, accept, request changes
    or reject."""

    serializer_class = ReviewDecisionSerializer

    @extend_schema(
        request=ReviewDecisionSerializer, responses={200: SubmissionSummarySerializer, **_REFUSALS}
    )
    def post(self, request: Request, pk: int) -> Response:
        user, submission = self.submission(request, pk)
        data = self.form(request, ReviewDecisionSerializer)
        action, reason, gap = (data[name] for name in ("action", "reason", "gap_phases"))
        if gap is not None and action != "accept":
            return Response(
                {"detail": "gap_phases goes with accept only."},
                status=status.HTTP_400_BAD_REQUEST,
            )
        if action == "accept":
            row = submission_accept(user=user, submission=submission, reason=reason, gap_phases=gap)
        else:
            row = COMMITTEE_DECISIONS[action](user=user, submission=submission, reason=reason)
        return Response(SubmissionSummarySerializer(row, context={"request": request}).data)


def _system_field(name: str) -> serializers.Field[Any, Any, Any, Any]:
    label = SYSTEM_LABELS[name]
    if name in COUNT_FIELDS:
        return serializers.IntegerField(required=False, allow_null=True, help_text=label)
    if name == NETWORK_FIELD:
        return serializers.FloatField(required=False, allow_null=True, help_text=label)
    if name in QUANTITY_FIELDS:
        # A number in the field's base unit, or text with a unit ("512 GiB"), as the form takes it.
        return serializers.CharField(
            required=False, allow_blank=True, allow_null=True, max_length=64, help_text=label
        )
    return serializers.CharField(
        required=False, allow_blank=True, allow_null=True, max_length=MAX_TEXT, help_text=label
    )


class SystemEditSerializer(serializers.Serializer[dict[str, Any]]):
    """The fields to change; null or blank clears one, a field not sent stays."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {name: _system_field(name) for name in FORM_FIELD_NAMES}


class RevisionSerializer(serializers.ModelSerializer[SubmissionRevision]):
    author = serializers.SerializerMethodField()

    class Meta:
        model = SubmissionRevision
        fields = ["kind", "number", "author", "changes", "snapshot", "created_at"]

    def get_author(self, revision: SubmissionRevision) -> str:
        return revision.author.get_username() if revision.author else ""


def _unknown_names(data: Any, known: Any) -> Response | None:
    """A 400 naming the fields `data` holds that are not `known`, or a body that is no object."""
    if not isinstance(data, Mapping):
        return Response(
            {"detail": f"The body must be a JSON object of fields; the fields are {', '.join(known)}."},
            status=status.HTTP_400_BAD_REQUEST,
        )
    unknown = sorted(str(name) for name in data if name not in known)
    if not unknown:
        return None
    named = [clip(name) for name in unknown[:MAX_PROBLEMS_LISTED]]
    return Response(
        {
            "detail": f"No such field: {', '.join(named)}. The fields are {', '.join(known)}.",
            "unknown_fields": named,
        },
        status=status.HTTP_400_BAD_REQUEST,
    )


class SystemDescriptionEditApi(SubmissionStepApi):
    """Fix the system description of your submission until it is accepted; each edit is a new
    version naming what changed, which the committee sees."""

    serializer_class = SystemEditSerializer
    queryset = Submission.objects.none()  # as QuestionnaireApi: OPTIONS describes the write

    @extend_schema(request=SystemEditSerializer, responses={200: RevisionSerializer, **_REFUSALS})
    def patch(self, request: Request, pk: int) -> Response:
        user, submission = self.submission(request, pk)
        unknown = _unknown_names(request.data, FORM_FIELD_NAMES)
        if unknown is not None:
            return unknown
        data = self.form(request, SystemEditSerializer, partial=True)
        revision = system_description_edit(user=user, submission=submission, fields=data)
        return Response(RevisionSerializer(revision).data)


class QuestionnaireSerializer(serializers.Serializer[dict[str, Any]]):
    """Every section answered (at least the words the IO500 asks for)."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            name: serializers.CharField(
                required=False, allow_blank=True, max_length=MAX_ANSWER_CHARS, help_text=question
            )
            for name, (_title, question) in QUESTIONNAIRE_SECTIONS.items()
        }


class QuestionnaireApi(SubmissionStepApi):
    """Answer (or change) the reproducibility questionnaire until the submission is accepted; a
    change after the first answers is a new version naming the answers that changed."""

    serializer_class = QuestionnaireSerializer
    # An OPTIONS request describes PUT by asking for the object: with no rows it answers 404 there,
    # which DRF's metadata skips (without a queryset it was a 500). Requests use the selector.
    queryset = Submission.objects.none()

    @extend_schema(responses={200: QuestionnaireSerializer, 403: _REFUSALS[403]})
    def get(self, request: Request, pk: int) -> Response:
        """The answers as they stand (blank where none was given yet), for a client to fill in and PUT."""
        _user, submission = self.submission(request, pk, followers_only="see its questionnaire")
        questionnaire = questionnaire_get(submission=submission)
        return Response(
            {name: getattr(questionnaire, name) if questionnaire else "" for name in QUESTIONNAIRE_SECTIONS}
        )

    @extend_schema(request=QuestionnaireSerializer, responses={200: QuestionnaireSerializer, **_REFUSALS})
    def put(self, request: Request, pk: int) -> Response:
        user, submission = self.submission(request, pk)
        unknown = _unknown_names(request.data, list(QUESTIONNAIRE_SECTIONS))
        if unknown is not None:
            return unknown
        data = self.form(request, QuestionnaireSerializer)
        questionnaire = questionnaire_record(user=user, submission=submission, answers=data)
        return Response({name: getattr(questionnaire, name) for name in QUESTIONNAIRE_SECTIONS})


class RevisionListApi(SubmissionStepApi):
    """The versions of the system description and the questionnaire, oldest first."""

    serializer_class = RevisionSerializer
    queryset = SubmissionRevision.objects.none()  # for the schema's path parameter; requests use the selector

    @extend_schema(responses={200: RevisionSerializer(many=True), 403: _REFUSALS[403]})
    def get(self, request: Request, pk: int) -> Response:
        _user, submission = self.submission(request, pk, followers_only="see its versions")
        rows = SubmissionRevision.objects.filter(submission=submission).select_related("author")
        return Response(RevisionSerializer(rows.order_by("kind", "number"), many=True).data)


class ReplaceSerializer(serializers.Serializer[dict[str, Any]]):
    archive = serializers.FileField(
        allow_empty_file=True,
        help_text="The corrected result folder (.tar, .tar.gz/.tgz, .tar.bz2, .tar.xz, .zip).",
    )


class ReplaceApi(SubmissionStepApi):
    """Replace the tarball of your submission until it is accepted: the new upload is a new
    submission linked as the next version; this one is kept, superseded, and its description,
    questionnaire, release and review carry over."""

    throttle_classes = [UploadThrottle]
    parser_classes = [MultiPartParser, FormParser]
    serializer_class = ReplaceSerializer

    @extend_schema(
        request={"multipart/form-data": ReplaceSerializer},
        responses={
            202: OpenApiResponse(
                SubmissionCreatedSerializer, description="The next version; verification is queued."
            ),
            **_REFUSALS,
            507: OpenApiResponse(_ERROR, description="The registry's storage is full or unavailable."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        user, submission = self.submission(request, pk)
        data = self.form(request, ReplaceSerializer)
        archive = data["archive"]
        try:
            row = submission_replace(
                user=user, submission=submission, archive=archive, original_name=archive.name or "archive"
            )
        except ArchiveStorageUnavailable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_507_INSUFFICIENT_STORAGE)
        body = SubmissionCreatedSerializer(row, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED)


# The committee's other actions of the review page: revoke a per-entry decision, assess, comment.


class RevokeSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(
        max_length=MAX_COMMENT_CHARS,
        help_text="Why the decision is revoked (kept with it, sent to the submitter).",
    )


class EntryDecisionRevokeApi(SubmissionStepApi):
    """The committee revokes one of its per-entry decisions (exclude, move, withdraw after publication,
    duplicate): it stays recorded, no longer applies, and the next list version reflects it."""

    serializer_class = RevokeSerializer
    queryset = EntryDecision.objects.none()  # for the schema's path parameters; requests use the service

    @extend_schema(request=RevokeSerializer, responses={200: EntryDecisionSerializer, **_REFUSALS})
    def post(self, request: Request, pk: int, decision_pk: int) -> Response:
        user, submission = self.submission(request, pk)
        decision = EntryDecision.objects.filter(pk=decision_pk, submission=submission).first()
        if decision is None:
            raise NotFound(f"Submission {pk} has no decision {decision_pk}.")
        data = self.form(request, RevokeSerializer)
        revoked = entry_decision_revoke(user=user, decision=decision, reason=data["reason"])
        return Response(EntryDecisionSerializer(revoked).data)


class AssessSerializer(serializers.Serializer[dict[str, Any]]):
    reproducibility = serializers.ChoiceField(choices=Reproducibility.choices)
    category = serializers.ChoiceField(
        choices=ListCategory.choices, help_text="The lists it may enter: production or research."
    )
    ten_node = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Confirm (true) or refuse (false) the 10-node lists; omitted: as the submitter asked.",
    )
    reason = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=MAX_COMMENT_CHARS, help_text="Sent with it."
    )


class AssessApi(SubmissionStepApi):
    """The committee assigns the reproducibility level and the list category, confirming or changing
    the lists the submitter asked for (while submitted, under review or accepted)."""

    serializer_class = AssessSerializer

    @extend_schema(request=AssessSerializer, responses={200: SubmissionSummarySerializer, **_REFUSALS})
    def post(self, request: Request, pk: int) -> Response:
        user, submission = self.submission(request, pk)
        data = self.form(request, AssessSerializer)
        row = submission_assess(user=user, submission=submission, **data)
        return Response(SubmissionSummarySerializer(row, context={"request": request}).data)


class CommentSerializer(serializers.ModelSerializer[ReviewComment]):
    author = serializers.SerializerMethodField()

    class Meta:
        model = ReviewComment
        fields = ["id", "author", "parent", "body", "created_at"]

    def get_author(self, comment: ReviewComment) -> str:
        return comment.author.get_username()


class CommentCreateSerializer(serializers.Serializer[dict[str, Any]]):
    body = serializers.CharField(max_length=MAX_COMMENT_CHARS)
    parent = serializers.IntegerField(  # type: ignore[assignment]
        required=False, allow_null=True, default=None, help_text="The comment this one answers."
    )


class CommentApi(SubmissionStepApi):
    """The comments between the submitter and the committee, oldest first; POST adds one (the
    submitter's own submission, or the committee's on any)."""

    serializer_class = CommentSerializer
    queryset = ReviewComment.objects.none()  # for the schema's path parameter; requests use the selector

    @extend_schema(responses={200: CommentSerializer(many=True), 403: _REFUSALS[403]})
    def get(self, request: Request, pk: int) -> Response:
        _user, submission = self.submission(request, pk, followers_only="read its comments")
        rows = review_comment_list(submission=submission)
        return Response(CommentSerializer(rows, many=True).data)

    @extend_schema(request=CommentCreateSerializer, responses={201: CommentSerializer, **_REFUSALS})
    def post(self, request: Request, pk: int) -> Response:
        user, submission = self.submission(request, pk)
        data = self.form(request, CommentCreateSerializer)
        comment = comment_add(
            user=user,
            submission=submission,
            body=data["body"],
            parent_id=data["parent"],
        )
        return Response(CommentSerializer(comment).data, status=status.HTTP_201_CREATED)


class WithdrawSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(max_length=10_000, help_text="Why you withdraw it; the committee sees it.")


class WithdrawApi(SubmissionStepApi):
    """Withdraw your own submission before it is published (the same step as the decisions
    endpoint's `withdraw`, under its own address): it leaves review and no list takes it."""

    serializer_class = WithdrawSerializer

    @extend_schema(request=WithdrawSerializer, responses={201: EntryDecisionSerializer, **_REFUSALS})
    def post(self, request: Request, pk: int) -> Response:
        user, submission = self.submission(request, pk)
        data = self.form(request, WithdrawSerializer)
        decision = submission_withdraw(user=user, submission=submission, reason=data["reason"])
        return Response(EntryDecisionSerializer(decision).data, status=status.HTTP_201_CREATED)
