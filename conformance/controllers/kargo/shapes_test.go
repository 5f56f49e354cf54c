package kargo

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
)

func TestStagesThatDifferOnlyInNamesShareAShape(t *testing.T) {
	wave := func(name string, clusters ...string) *kargoapi.Stage {
		steps := []kargoapi.PromotionStep{
			{Uses: "git-clone", Config: config(t, `{"repoURL":"https://github.com/acme/deploy.git","checkout":[{"branch":"rendered/shop/`+name+`","create":true,"path":"./out"}]}`)},
		}
		for _, c := range clusters {
			steps = append(steps, kargoapi.PromotionStep{As: "render-" + c, Task: &kargoapi.PromotionTaskReference{Kind: "PromotionTask", Name: "render-cluster"},
				Vars: []kargoapi.ExpressionVariable{{Name: "cluster", Value: c}}})
		}
		steps = append(steps, kargoapi.PromotionStep{Uses: "git-commit", Config: config(t,
			`{"path":"./out","message":"render shop for `+name+` (${{ ctx.targetFreight.name }}): `+strings.Join(clusters, ", ")+`"}`)})
		return stage(name, steps, kargoapi.FreightSources{Direct: true})
	}
	one, three := stepShape(wave("prod-w1", "eu-1")), stepShape(wave("prod-w2", "us-1", "us-2", "ap-1"))
	if one != three {
		t.Errorf("a wave of one cluster and a wave of three differ:\n%s\n%s", one, three)
	}
	other := wave("prod-w3", "eu-2")
	other.Spec.PromotionTemplate.Spec.Steps[0].Config = config(t, `{"repoURL":"https://github.com/acme/deploy.git","checkout":[{"branch":"rendered/shop/prod-w3","create":false,"path":"./out"}]}`)
	if stepShape(other) == one {
		t.Error("a checkout without create has the shape of one with it")
	}
	freight := wave("prod-w5", "eu-4")
	freight.Spec.PromotionTemplate.Spec.Steps[2].Config = config(t, `{"path":"./out","message":"render shop for prod-w5 (${{ ctx.targetFreight.alias }}): eu-4"}`)
	if stepShape(freight) == one {
		t.Error("a commit message with another expression has the shape of the first")
	}
	bare := wave("prod-w6", "eu-5")
	bare.Spec.PromotionTemplate.Spec.Steps[2].Config = config(t, `{"path":"./out","message":"${{ ctx.targetFreight.name }}"}`)
	if stepShape(bare) == one {
		t.Error("a message that is one expression alone (a value of its own type) has the shape of one with text around it")
	}
	percent := func(name, expression string) string {
		st := wave(name, "eu-6")
		st.Spec.PromotionTemplate.Spec.Steps[2].Config = config(t, `{"path":"./out","message":"render shop for `+name+` (${% `+expression+` %}): eu-6"}`)
		return stepShape(st)
	}
	if percent("prod-w7", "ctx.targetFreight.alias") == percent("prod-w10", "ctx.targetFreight.name") {
		t.Error("commit messages with different ${% %} expressions share a shape")
	}
	// a template that starts with what a number, a boolean or JSON can start with keeps its text:
	// Kargo types the whole result
	numbered := func(name, cluster string) string {
		st := wave(name, cluster)
		st.Spec.PromotionTemplate.Spec.Steps[2].Config = config(t, `{"path":"./out","message":"1${{ ctx.targetFreight.name }} `+cluster+`"}`)
		return stepShape(st)
	}
	if numbered("prod-w8", "eu-7") == numbered("prod-w9", "eu-8") {
		t.Error("the text of a template that may evaluate to a number was left out")
	}
	pr := wave("prod-w4", "eu-3")
	pr.Spec.PromotionTemplate.Spec.Steps = append(pr.Spec.PromotionTemplate.Spec.Steps, kargoapi.PromotionStep{Uses: "git-open-pr"})
	if stepShape(pr) == one {
		t.Error("a stage that opens a pull request has the shape of one that does not")
	}
}

func config(t *testing.T, raw string) *apiextensionsv1.JSON {
	t.Helper()
	return &apiextensionsv1.JSON{Raw: []byte(raw)}
}
