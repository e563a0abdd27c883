package clusters

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// hostedAgentImageIdentity names an agent image for import blocks and terraform query.
var hostedAgentImageIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("cluster_id", "The ID of the cluster the image belongs to."),
	kit.IdentityAttr("id", "The image's ID."),
)

// defaultImageBuildWait is how long a create waits for the build unless timeouts.create says otherwise, as
// in the official provider: image builds outlast the provider's three-minute operation timeout.
const defaultImageBuildWait = 30 * time.Minute

// The polls of a build: the first after imagePollFirst, each later one twice as long after the one before,
// at most imagePollMax apart.
var (
	imagePollFirst = 500 * time.Millisecond
	imagePollMax   = 30 * time.Second
)

// NewHostedAgentImageResource returns the buildkite_hosted_agent_image resource.
func NewHostedAgentImageResource() resource.Resource { return kit.NewObject(hostedAgentImageKind) }

var hostedAgentImageKind = &kit.ObjectKind[buildkite.AgentImage, hostedAgentImageModel]{
	Name: "hosted_agent_image", What: "hosted agent image", Scopes: kit.WriteScopes("write_clusters"),
	Identity: hostedAgentImageIdentity, Schema: hostedAgentImageSchema,
	// Above the official provider's version 0 (its cluster_id a UUID too; no version or last_build_error,
	// which the first refresh fills), and ours of version 0, to version 1.
	Moves:  kit.StateMoves{Refs: []string{"cluster_id"}},
	Parent: "cluster_id", Key: kit.AttrID, OpaqueKey: true,
	FromAPI: func(m *hostedAgentImageModel, clusterID string, img *buildkite.AgentImage) { m.fromAPI(clusterID, img) },
	Create: func(ctx context.Context, c *buildkite.Client, clusterID string, plan *hostedAgentImageModel) (*buildkite.AgentImage, error) {
		// A timeouts.create that does not parse is refused before anything is made.
		if _, diags := kit.CreateWait(plan.Timeouts, defaultImageBuildWait); diags.HasError() {
			return nil, &kit.DiagnosedError{Summary: diags.Errors()[0].Summary(), Detail: diags.Errors()[0].Detail()}
		}
		return c.AgentImages.Create(ctx, clusterID, buildkite.AgentImageCreate{
			Name: plan.Name.ValueString(), Dockerfile: plan.Dockerfile.ValueString(),
		})
	},
	Get: func(ctx context.Context, c *buildkite.Client, clusterID, id string) (*buildkite.AgentImage, error) {
		return c.AgentImages.Get(ctx, clusterID, id)
	},
	// Only the timeouts block changes in place (every argument replaces the image): the image is read again,
	// and the plan's block kept.
	Update: func(ctx context.Context, c *buildkite.Client, clusterID, id string, _, _ *hostedAgentImageModel) (*buildkite.AgentImage, error) {
		return c.AgentImages.Get(ctx, clusterID, id)
	},
	Remove: func(ctx context.Context, c *buildkite.Client, clusterID, id string) error {
		return c.AgentImages.Delete(ctx, clusterID, id)
	},
	ImportParts: []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster"), kit.KeyPart("<image id>")},
	Named: func(plan *hostedAgentImageModel) string {
		return fmt.Sprintf("%q in cluster %s", plan.Name.ValueString(), plan.ClusterID.UUID())
	},
	Holder:      holderOfImageName,
	ModifyPlan:  replaceFailedImage,
	AfterCreate: awaitImageBuild,
}

type hostedAgentImageModel struct {
	ID             types.String `tfsdk:"id"`
	ClusterID      kit.RefValue `tfsdk:"cluster_id"`
	Name           types.String `tfsdk:"name"`
	Dockerfile     types.String `tfsdk:"dockerfile"`
	Status         types.String `tfsdk:"status"`
	ImageRef       types.String `tfsdk:"image_ref"`
	Version        types.String `tfsdk:"version"`
	LastBuildError types.String `tfsdk:"last_build_error"`
	Timeouts       types.Object `tfsdk:"timeouts"`
}

// fromAPI copies the service's view; the timeouts block is the configuration's and stays as it is (a null
// block when the model is new).
func (m *hostedAgentImageModel) fromAPI(clusterID string, img *buildkite.AgentImage) {
	m.ID = types.StringValue(img.ID)
	m.ClusterID = kit.NewRef(clusterID)
	m.Name = types.StringValue(img.Name)
	m.Dockerfile = types.StringValue(img.Dockerfile)
	m.Status = types.StringValue(img.Status)
	m.ImageRef = kit.OptionalStringPtr(img.ImageRef)
	m.Version = kit.OptionalString(string(img.Version))
	m.LastBuildError = kit.OptionalStringPtr(img.LastBuildError)
	if m.Timeouts.IsNull() {
		m.Timeouts = types.ObjectNull(kit.CreateTimeoutAttrTypes)
	}
}

func (m *hostedAgentImageModel) ident() string {
	return fmt.Sprintf("%q (ID %s) in cluster %s", m.Name.ValueString(), m.ID.ValueString(), m.ClusterID.UUID())
}

func hostedAgentImageSchema() schema.Schema {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A custom agent image for a cluster's Linux hosted agents: Buildkite builds it from " +
			"`dockerfile` on its own base image, and a hosted queue of the cluster runs on it by naming it in " +
			"`hosted_agents.linux.agent_image_ref = buildkite_hosted_agent_image.<name>.image_ref`.\n\n" +
			"The cluster needs a hosted queue before it can hold images (the service refuses the create " +
			"otherwise): when that queue is in the same configuration, add it to `depends_on`.\n\n" +
			"**Building.** A create waits for the build to finish, up to `timeouts.create` (30 minutes unless set), " +
			"polling less and less often. When the build fails, or outlasts the wait, the apply fails with the " +
			"service's build error (or the status it reached), and the image, which exists on the service, stays " +
			"in state, tainted: the next apply deletes it and builds a new one. To keep an image that only needed " +
			"longer, run `terraform untaint` on it; the next refresh reads its status and `image_ref`. An image " +
			"found `FAILED` (imported, or untainted) is planned for replacement too.\n\n" +
			"An image cannot be changed: changing any argument replaces it. The service refuses to delete an image " +
			"a queue runs on until the queue names another.\n\n" +
			"**Importing.** Import as `<cluster id>/<image id>`, as in the official provider.",
		Attributes: map[string]schema.Attribute{
			kit.AttrID:   kit.ComputedString("The image's ID, as the service assigns it (not a UUID)."),
			"cluster_id": kit.ParentIDAttribute("The ID of the cluster the image belongs to.", "Cluster"),
			"name": schema.StringAttribute{
				MarkdownDescription: "The image's name, unique in its cluster. Changing it replaces the image.",
				Required:            true,
				PlanModifiers:       replace,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"dockerfile": schema.StringAttribute{
				MarkdownDescription: "The Dockerfile instructions the image is built with, without `FROM`: Buildkite " +
					"puts its hosted agent base image first. Changing it replaces the image.",
				Required:      true,
				PlanModifiers: replace,
				Validators:    []validator.String{kit.NotBlank(), noFromInstruction{}},
			},
			"status": kit.ComputedString("The build's status: `BUILDING`, `READY` or `FAILED`."),
			"image_ref": kit.ComputedString("What a hosted queue names the built image by, for its " +
				"`hosted_agents.linux.agent_image_ref`; null until the build is `READY`."),
			"version":          kit.ComputedString("The image's version, as the service numbers it."),
			"last_build_error": kit.ComputedString("Why the last build failed; null unless it did."),
		},
		Blocks: map[string]schema.Block{
			"timeouts": kit.CreateTimeoutBlock("How long a create waits for the image to build, such as `45m`. " +
				"Defaults to 30 minutes."),
		},
	}
}

// replaceFailedImage replaces an image whose build failed: one imported, or untainted, while FAILED would
// otherwise stay in state without an image to run on.
func replaceFailedImage(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var status types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("status"), &status)...)
	if status.ValueString() != buildkite.AgentImageFailed {
		return
	}
	for _, computed := range []string{"id", "status", "image_ref", "version", "last_build_error"} {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(computed), types.StringUnknown())...)
	}
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("status"))
}

// awaitImageBuild waits, once the created image is recorded, for its build within timeouts.create, and
// fails the apply when the build fails or outlasts the wait: the image exists on the service and stays in
// state, tainted.
func awaitImageBuild(ctx context.Context, c *buildkite.Client, clusterID string, plan *hostedAgentImageModel,
	img *buildkite.AgentImage) (*buildkite.AgentImage, error) {
	wait, _ := kit.CreateWait(plan.Timeouts, defaultImageBuildWait) // checked by create
	img, err := awaitBuild(ctx, c, clusterID, img, wait)
	if err != nil {
		return img, &kit.DiagnosedError{Summary: "Hosted Agent Image Not Built", Detail: fmt.Sprintf(
			"Building hosted agent image %s: %s. The image exists on the service and stays in state, tainted: the "+
				"next apply deletes it and builds a new one (fix the Dockerfile first if the build failed; to keep "+
				"waiting for a build that only needed longer, run `terraform untaint` on it, or raise "+
				"timeouts.create).", plan.ident(), err)}
	}
	return img, nil
}

// awaitBuild polls the image until its build is READY, FAILED or the wait is over, and returns the last
// answer (img when no poll answered) with an error unless it is READY. A poll the client could not get an
// answer to ends the wait too, with the service's words.
func awaitBuild(ctx context.Context, c *buildkite.Client, clusterID string, img *buildkite.AgentImage,
	wait time.Duration) (*buildkite.AgentImage, error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	interval := imagePollFirst
	for img.Status == buildkite.AgentImageBuilding {
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return img, fmt.Errorf("the build was still %s when timeouts.create (%s) ran out", img.Status, wait)
			}
			return img, fmt.Errorf("the wait for the build was interrupted while it was %s", img.Status)
		case <-time.After(interval):
		}
		interval = min(2*interval, imagePollMax)
		next, err := c.AgentImages.Poll(ctx, clusterID, img.ID)
		switch {
		case err != nil && ctx.Err() != nil:
			continue // the deadline or an interrupt: the loop says which
		case err != nil:
			return img, fmt.Errorf("reading its status failed: %s", kit.DescribeError(err))
		}
		img = next
	}
	switch img.Status {
	case buildkite.AgentImageReady:
		return img, nil
	case buildkite.AgentImageFailed:
		return img, fmt.Errorf("the build failed: %s", kit.Deref(img.LastBuildError))
	}
	return img, fmt.Errorf("the service answered the status %q, neither READY nor FAILED", img.Status)
}

// dockerfileFrom finds a FROM instruction at the start of a line, which the service refuses.
var dockerfileFrom = regexp.MustCompile(`(?im)^\s*FROM\s`)

// noFromInstruction refuses, at plan time, a Dockerfile with a FROM instruction: Buildkite provides the base
// image.
type noFromInstruction struct{}

func (noFromInstruction) Description(context.Context) string {
	return "must not contain a FROM instruction: Buildkite puts its hosted agent base image first"
}

func (v noFromInstruction) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v noFromInstruction) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if kit.IsKnownValue(req.ConfigValue) && dockerfileFrom.MatchString(req.ConfigValue.ValueString()) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Dockerfile", fmt.Sprintf(
			"The dockerfile %s. Remove the FROM line; the image is built on Buildkite's base image.", v.Description(ctx)))
	}
}

// holderOfImageName finds the image that holds a name in a cluster, for a create refused because the name is
// taken (most likely by an earlier apply stopped before it could record it).
func holderOfImageName(c *buildkite.Client, plan *hostedAgentImageModel) kit.HolderLookup {
	clusterID, name := plan.ClusterID.UUID(), plan.Name.ValueString()
	return func(ctx context.Context) (*kit.Holder, error) {
		images, err := c.AgentImages.List(ctx, clusterID)
		if err != nil {
			return nil, err
		}
		for _, img := range images {
			if img.Name == name {
				return &kit.Holder{
					Description: fmt.Sprintf("hosted agent image %q (ID %s) in cluster %s", img.Name, img.ID, clusterID),
					ImportID:    clusterID + "/" + img.ID,
				}, nil
			}
		}
		return nil, nil
	}
}
