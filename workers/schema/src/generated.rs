//! The schema table, generated: do not edit.
//!
//! Regenerate with `cargo run -p kas-schema --example gen` (see `examples/gen/`):
//! it reads the sources of `k8s-pb` 0.9.0 and `k8s-openapi` 0.29.0 (`v1_33`), and
//! upstream's Go types at v0.33.13 (`K8S_GO_TYPES`).
#![allow(clippy::all)]

use crate::types::{
    Elem as E, FieldDef, FieldKind as K, Format as F, Gvk, Scalar as S, TypeDef, Zero as Z,
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_AUDITANNOTATION: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.AuditAnnotation",
    proto: "k8s.io.api.admissionregistration.v1.AuditAnnotation",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("valueExpression", 2, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_EXPRESSIONWARNING: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.ExpressionWarning",
    proto: "k8s.io.api.admissionregistration.v1.ExpressionWarning",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("fieldRef", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("warning", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_MATCHCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.MatchCondition",
    proto: "k8s.io.api.admissionregistration.v1.MatchCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("expression", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_MATCHRESOURCES: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.MatchResources",
    proto: "k8s.io.api.admissionregistration.v1.MatchResources",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new(
            "namespaceSelector",
            1,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "objectSelector",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "resourceRules",
            3,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_NAMEDRULEWITHOPERATIONS,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "excludeResourceRules",
            4,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_NAMEDRULEWITHOPERATIONS,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("matchPolicy", 7, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOK: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.MutatingWebhook",
    proto: "k8s.io.api.admissionregistration.v1.MutatingWebhook",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 3, 8, 4, 10, 5, 6, 7, 9, 11],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "clientConfig",
            2,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_WEBHOOKCLIENTCONFIG,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "rules",
            3,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_RULEWITHOPERATIONS,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("failurePolicy", 4, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "namespaceSelector",
            5,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new("sideEffects", 6, K::Single(E::Scalar(S::String)), false).zero(Z::Null),
        FieldDef::new("timeoutSeconds", 7, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "admissionReviewVersions",
            8,
            K::List(E::Scalar(S::String)),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new("matchPolicy", 9, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "reinvocationPolicy",
            10,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "objectSelector",
            11,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "matchConditions",
            12,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_MATCHCONDITION,
            )),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOKCONFIGURATION: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration",
        proto: "k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1",
            kind: "MutatingWebhookConfiguration",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
                false,
            )
            .zero(Z::Object),
            FieldDef::new(
                "webhooks",
                2,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOK,
                )),
                true,
            )
            .patch(Some("merge"), Some("name"))
            .list(Some("map"), &["name"]),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOKCONFIGURATIONLIST: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1.MutatingWebhookConfigurationList",
        proto: "k8s.io.api.admissionregistration.v1.MutatingWebhookConfigurationList",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1",
            kind: "MutatingWebhookConfigurationList",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "items",
                2,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOKCONFIGURATION,
                )),
                false,
            )
            .zero(Z::Null),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_NAMEDRULEWITHOPERATIONS: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.NamedRuleWithOperations",
    proto: "k8s.io.api.admissionregistration.v1.NamedRuleWithOperations",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("resourceNames", 1, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new(
            "",
            2,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_RULEWITHOPERATIONS,
            )),
            true,
        )
        .inline()
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_PARAMKIND: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.ParamKind",
    proto: "k8s.io.api.admissionregistration.v1.ParamKind",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("apiVersion", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_PARAMREF: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.ParamRef",
    proto: "k8s.io.api.admissionregistration.v1.ParamRef",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("namespace", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "selector",
            3,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "parameterNotFoundAction",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_RULE: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.Rule",
    proto: "k8s.io.api.admissionregistration.v1.Rule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 3, 4, 5, 0, 1],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("apiGroups", 1, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("apiVersions", 2, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("resources", 3, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("scope", 4, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_RULEWITHOPERATIONS: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.RuleWithOperations",
    proto: "k8s.io.api.admissionregistration.v1.RuleWithOperations",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("operations", 1, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new(
            "",
            2,
            K::Single(E::Message(&IO_K8S_API_ADMISSIONREGISTRATION_V1_RULE)),
            true,
        )
        .inline()
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_SERVICEREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.ServiceReference",
    proto: "k8s.io.api.admissionregistration.v1.ServiceReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("namespace", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("path", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("port", 4, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_TYPECHECKING: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.TypeChecking",
    proto: "k8s.io.api.admissionregistration.v1.TypeChecking",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "expressionWarnings",
        1,
        K::List(E::Message(
            &IO_K8S_API_ADMISSIONREGISTRATION_V1_EXPRESSIONWARNING,
        )),
        true,
    )
    .list(Some("atomic"), &[])],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICY: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy",
        proto: "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicy",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1",
            kind: "ValidatingAdmissionPolicy",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3, 4],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
                false,
            )
            .zero(Z::Object),
            FieldDef::new(
                "spec",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYSPEC,
                )),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "status",
                3,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYSTATUS,
                )),
                true,
            )
            .zero(Z::Object),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDING: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding",
        proto: "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1",
            kind: "ValidatingAdmissionPolicyBinding",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
                false,
            )
            .zero(Z::Object),
            FieldDef::new(
                "spec",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDINGSPEC,
                )),
                true,
            )
            .zero(Z::Object),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDINGLIST:
    TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingList",
    proto: "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingList",
    gvk: Some(Gvk {
        group: "admissionregistration.k8s.io",
        version: "v1",
        kind: "ValidatingAdmissionPolicyBindingList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDING,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDINGSPEC:
    TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec",
    proto: "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("policyName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "paramRef",
            2,
            K::Single(E::Message(&IO_K8S_API_ADMISSIONREGISTRATION_V1_PARAMREF)),
            true,
        ),
        FieldDef::new(
            "matchResources",
            3,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_MATCHRESOURCES,
            )),
            true,
        ),
        FieldDef::new("validationActions", 4, K::List(E::Scalar(S::String)), true)
            .list(Some("set"), &[]),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYLIST: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyList",
        proto: "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyList",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1",
            kind: "ValidatingAdmissionPolicyList",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "items",
                2,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICY,
                )),
                false,
            )
            .zero(Z::Null),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYSPEC: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec",
        proto: "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicySpec",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new(
                "paramKind",
                1,
                K::Single(E::Message(&IO_K8S_API_ADMISSIONREGISTRATION_V1_PARAMKIND)),
                true,
            ),
            FieldDef::new(
                "matchConstraints",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_MATCHRESOURCES,
                )),
                true,
            ),
            FieldDef::new(
                "validations",
                3,
                K::List(E::Message(&IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATION)),
                true,
            )
            .list(Some("atomic"), &[]),
            FieldDef::new("failurePolicy", 4, K::Single(E::Scalar(S::String)), true),
            FieldDef::new(
                "auditAnnotations",
                5,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_AUDITANNOTATION,
                )),
                true,
            )
            .list(Some("atomic"), &[]),
            FieldDef::new(
                "matchConditions",
                6,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_MATCHCONDITION,
                )),
                true,
            )
            .patch(Some("merge"), Some("name"))
            .list(Some("map"), &["name"]),
            FieldDef::new(
                "variables",
                7,
                K::List(E::Message(&IO_K8S_API_ADMISSIONREGISTRATION_V1_VARIABLE)),
                true,
            )
            .patch(Some("merge"), Some("name"))
            .list(Some("map"), &["name"]),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYSTATUS: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus",
        proto: "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new(
                "observedGeneration",
                1,
                K::Single(E::Scalar(S::Int64)),
                true,
            )
            .omits_zero(),
            FieldDef::new(
                "typeChecking",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_TYPECHECKING,
                )),
                true,
            ),
            FieldDef::new(
                "conditions",
                3,
                K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION)),
                true,
            )
            .list(Some("map"), &["type"]),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOK: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.ValidatingWebhook",
    proto: "k8s.io.api.admissionregistration.v1.ValidatingWebhook",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 3, 8, 4, 9, 5, 6, 7, 10],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "clientConfig",
            2,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_WEBHOOKCLIENTCONFIG,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "rules",
            3,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_RULEWITHOPERATIONS,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("failurePolicy", 4, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "namespaceSelector",
            5,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new("sideEffects", 6, K::Single(E::Scalar(S::String)), false).zero(Z::Null),
        FieldDef::new("timeoutSeconds", 7, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "admissionReviewVersions",
            8,
            K::List(E::Scalar(S::String)),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new("matchPolicy", 9, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "objectSelector",
            10,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "matchConditions",
            11,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_MATCHCONDITION,
            )),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOKCONFIGURATION: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration",
        proto: "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1",
            kind: "ValidatingWebhookConfiguration",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
                false,
            )
            .zero(Z::Object),
            FieldDef::new(
                "webhooks",
                2,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOK,
                )),
                true,
            )
            .patch(Some("merge"), Some("name"))
            .list(Some("map"), &["name"]),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOKCONFIGURATIONLIST: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfigurationList",
        proto: "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfigurationList",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1",
            kind: "ValidatingWebhookConfigurationList",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "items",
                2,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOKCONFIGURATION,
                )),
                false,
            )
            .zero(Z::Null),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATION: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.Validation",
    proto: "k8s.io.api.admissionregistration.v1.Validation",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("expression", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("message", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("reason", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "messageExpression",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_VARIABLE: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.Variable",
    proto: "k8s.io.api.admissionregistration.v1.Variable",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("expression", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1_WEBHOOKCLIENTCONFIG: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1.WebhookClientConfig",
    proto: "k8s.io.api.admissionregistration.v1.WebhookClientConfig",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 0, 1],
    fields: &[
        FieldDef::new(
            "service",
            1,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1_SERVICEREFERENCE,
            )),
            true,
        ),
        FieldDef::new("caBundle", 2, K::Single(E::Scalar(S::Bytes)), true),
        FieldDef::new("url", 3, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_APPLYCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.ApplyConfiguration",
    proto: "k8s.io.api.admissionregistration.v1alpha1.ApplyConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("expression", 1, K::Single(E::Scalar(S::String)), true).omits_zero()],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_JSONPATCH: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.JSONPatch",
    proto: "k8s.io.api.admissionregistration.v1alpha1.JSONPatch",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("expression", 1, K::Single(E::Scalar(S::String)), true).omits_zero()],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MATCHCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.MatchCondition",
    proto: "k8s.io.api.admissionregistration.v1alpha1.MatchCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("expression", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MATCHRESOURCES: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.MatchResources",
    proto: "k8s.io.api.admissionregistration.v1alpha1.MatchResources",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new(
            "namespaceSelector",
            1,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "objectSelector",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "resourceRules",
            3,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_NAMEDRULEWITHOPERATIONS,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "excludeResourceRules",
            4,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_NAMEDRULEWITHOPERATIONS,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("matchPolicy", 7, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICY: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicy",
        proto: "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicy",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1alpha1",
            kind: "MutatingAdmissionPolicy",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
                false,
            )
            .zero(Z::Object),
            FieldDef::new(
                "spec",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYSPEC,
                )),
                true,
            )
            .zero(Z::Object),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDING:
    TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBinding",
    proto: "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBinding",
    gvk: Some(Gvk {
        group: "admissionregistration.k8s.io",
        version: "v1alpha1",
        kind: "MutatingAdmissionPolicyBinding",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDINGSPEC,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDINGLIST:
    TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingList",
    proto: "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingList",
    gvk: Some(Gvk {
        group: "admissionregistration.k8s.io",
        version: "v1alpha1",
        kind: "MutatingAdmissionPolicyBindingList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDING,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDINGSPEC:
    TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingSpec",
    proto: "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("policyName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "paramRef",
            2,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_PARAMREF,
            )),
            true,
        ),
        FieldDef::new(
            "matchResources",
            3,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MATCHRESOURCES,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYLIST: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyList",
        proto: "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyList",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1alpha1",
            kind: "MutatingAdmissionPolicyList",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "items",
                2,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICY,
                )),
                false,
            )
            .zero(Z::Null),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYSPEC: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec",
        proto: "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new(
                "paramKind",
                1,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_PARAMKIND,
                )),
                true,
            ),
            FieldDef::new(
                "matchConstraints",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MATCHRESOURCES,
                )),
                true,
            ),
            FieldDef::new(
                "variables",
                3,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_VARIABLE,
                )),
                true,
            )
            .list(Some("atomic"), &[]),
            FieldDef::new(
                "mutations",
                4,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATION,
                )),
                true,
            )
            .list(Some("atomic"), &[]),
            FieldDef::new("failurePolicy", 5, K::Single(E::Scalar(S::String)), true),
            FieldDef::new(
                "matchConditions",
                6,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MATCHCONDITION,
                )),
                true,
            )
            .patch(Some("merge"), Some("name"))
            .list(Some("map"), &["name"]),
            FieldDef::new(
                "reinvocationPolicy",
                7,
                K::Single(E::Scalar(S::String)),
                true,
            )
            .omits_zero(),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATION: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.Mutation",
    proto: "k8s.io.api.admissionregistration.v1alpha1.Mutation",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("patchType", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "applyConfiguration",
            3,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_APPLYCONFIGURATION,
            )),
            true,
        ),
        FieldDef::new(
            "jsonPatch",
            4,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_JSONPATCH,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_NAMEDRULEWITHOPERATIONS: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1alpha1.NamedRuleWithOperations",
        proto: "k8s.io.api.admissionregistration.v1alpha1.NamedRuleWithOperations",
        gvk: None,
        format: F::Object,
        struct_type: Some("atomic"),
        go_order: &[],
        fields: &[
            FieldDef::new("resourceNames", 1, K::List(E::Scalar(S::String)), true)
                .list(Some("atomic"), &[]),
            FieldDef::new(
                "",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_RULEWITHOPERATIONS,
                )),
                true,
            )
            .inline()
            .zero(Z::Object),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_PARAMKIND: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.ParamKind",
    proto: "k8s.io.api.admissionregistration.v1alpha1.ParamKind",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("apiVersion", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_PARAMREF: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.ParamRef",
    proto: "k8s.io.api.admissionregistration.v1alpha1.ParamRef",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("namespace", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "selector",
            3,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "parameterNotFoundAction",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_VARIABLE: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1alpha1.Variable",
    proto: "k8s.io.api.admissionregistration.v1alpha1.Variable",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("expression", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_AUDITANNOTATION: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.AuditAnnotation",
    proto: "k8s.io.api.admissionregistration.v1beta1.AuditAnnotation",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("valueExpression", 2, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_EXPRESSIONWARNING: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.ExpressionWarning",
    proto: "k8s.io.api.admissionregistration.v1beta1.ExpressionWarning",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("fieldRef", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("warning", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_MATCHCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.MatchCondition",
    proto: "k8s.io.api.admissionregistration.v1beta1.MatchCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("expression", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_MATCHRESOURCES: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.MatchResources",
    proto: "k8s.io.api.admissionregistration.v1beta1.MatchResources",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new(
            "namespaceSelector",
            1,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "objectSelector",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "resourceRules",
            3,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_NAMEDRULEWITHOPERATIONS,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "excludeResourceRules",
            4,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_NAMEDRULEWITHOPERATIONS,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("matchPolicy", 7, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_NAMEDRULEWITHOPERATIONS: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1beta1.NamedRuleWithOperations",
        proto: "k8s.io.api.admissionregistration.v1beta1.NamedRuleWithOperations",
        gvk: None,
        format: F::Object,
        struct_type: Some("atomic"),
        go_order: &[],
        fields: &[
            FieldDef::new("resourceNames", 1, K::List(E::Scalar(S::String)), true)
                .list(Some("atomic"), &[]),
            FieldDef::new(
                "",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1_RULEWITHOPERATIONS,
                )),
                true,
            )
            .inline()
            .zero(Z::Object),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_PARAMKIND: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.ParamKind",
    proto: "k8s.io.api.admissionregistration.v1beta1.ParamKind",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("apiVersion", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_PARAMREF: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.ParamRef",
    proto: "k8s.io.api.admissionregistration.v1beta1.ParamRef",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("namespace", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "selector",
            3,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "parameterNotFoundAction",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_TYPECHECKING: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.TypeChecking",
    proto: "k8s.io.api.admissionregistration.v1beta1.TypeChecking",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "expressionWarnings",
        1,
        K::List(E::Message(
            &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_EXPRESSIONWARNING,
        )),
        true,
    )
    .list(Some("atomic"), &[])],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICY: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicy",
        proto: "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicy",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1beta1",
            kind: "ValidatingAdmissionPolicy",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3, 4],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
                false,
            )
            .zero(Z::Object),
            FieldDef::new(
                "spec",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYSPEC,
                )),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "status",
                3,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYSTATUS,
                )),
                true,
            )
            .zero(Z::Object),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDING:
    TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBinding",
    proto: "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBinding",
    gvk: Some(Gvk {
        group: "admissionregistration.k8s.io",
        version: "v1beta1",
        kind: "ValidatingAdmissionPolicyBinding",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDINGSPEC,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDINGLIST:
    TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingList",
    proto: "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingList",
    gvk: Some(Gvk {
        group: "admissionregistration.k8s.io",
        version: "v1beta1",
        kind: "ValidatingAdmissionPolicyBindingList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDING,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDINGSPEC:
    TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingSpec",
    proto: "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("policyName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "paramRef",
            2,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_PARAMREF,
            )),
            true,
        ),
        FieldDef::new(
            "matchResources",
            3,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_MATCHRESOURCES,
            )),
            true,
        ),
        FieldDef::new("validationActions", 4, K::List(E::Scalar(S::String)), true)
            .list(Some("set"), &[]),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYLIST: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyList",
        proto: "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyList",
        gvk: Some(Gvk {
            group: "admissionregistration.k8s.io",
            version: "v1beta1",
            kind: "ValidatingAdmissionPolicyList",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "items",
                2,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICY,
                )),
                false,
            )
            .zero(Z::Null),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYSPEC: TypeDef =
    TypeDef {
        name: "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicySpec",
        proto: "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicySpec",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new(
                "paramKind",
                1,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_PARAMKIND,
                )),
                true,
            ),
            FieldDef::new(
                "matchConstraints",
                2,
                K::Single(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_MATCHRESOURCES,
                )),
                true,
            ),
            FieldDef::new(
                "validations",
                3,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATION,
                )),
                true,
            )
            .list(Some("atomic"), &[]),
            FieldDef::new("failurePolicy", 4, K::Single(E::Scalar(S::String)), true),
            FieldDef::new(
                "auditAnnotations",
                5,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_AUDITANNOTATION,
                )),
                true,
            )
            .list(Some("atomic"), &[]),
            FieldDef::new(
                "matchConditions",
                6,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_MATCHCONDITION,
                )),
                true,
            )
            .patch(Some("merge"), Some("name"))
            .list(Some("map"), &["name"]),
            FieldDef::new(
                "variables",
                7,
                K::List(E::Message(
                    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VARIABLE,
                )),
                true,
            )
            .patch(Some("merge"), Some("name"))
            .list(Some("map"), &["name"]),
        ],
    };

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYSTATUS:
    TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyStatus",
    proto: "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "observedGeneration",
            1,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "typeChecking",
            2,
            K::Single(E::Message(
                &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_TYPECHECKING,
            )),
            true,
        ),
        FieldDef::new(
            "conditions",
            3,
            K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION)),
            true,
        )
        .list(Some("map"), &["type"]),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATION: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.Validation",
    proto: "k8s.io.api.admissionregistration.v1beta1.Validation",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("expression", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("message", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("reason", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "messageExpression",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VARIABLE: TypeDef = TypeDef {
    name: "io.k8s.api.admissionregistration.v1beta1.Variable",
    proto: "k8s.io.api.admissionregistration.v1beta1.Variable",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("expression", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_APIDISCOVERY_V2_APIGROUPDISCOVERY: TypeDef = TypeDef {
    name: "io.k8s.api.apidiscovery.v2.APIGroupDiscovery",
    proto: "k8s.io.api.apidiscovery.v2.APIGroupDiscovery",
    gvk: Some(Gvk {
        group: "apidiscovery.k8s.io",
        version: "v2",
        kind: "APIGroupDiscovery",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "versions",
            2,
            K::List(E::Message(&IO_K8S_API_APIDISCOVERY_V2_APIVERSIONDISCOVERY)),
            true,
        )
        .list(Some("map"), &["version"]),
    ],
};

pub(crate) static IO_K8S_API_APIDISCOVERY_V2_APIGROUPDISCOVERYLIST: TypeDef = TypeDef {
    name: "io.k8s.api.apidiscovery.v2.APIGroupDiscoveryList",
    proto: "k8s.io.api.apidiscovery.v2.APIGroupDiscoveryList",
    gvk: Some(Gvk {
        group: "apidiscovery.k8s.io",
        version: "v2",
        kind: "APIGroupDiscoveryList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_APIDISCOVERY_V2_APIGROUPDISCOVERY)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_APIDISCOVERY_V2_APIRESOURCEDISCOVERY: TypeDef = TypeDef {
    name: "io.k8s.api.apidiscovery.v2.APIResourceDiscovery",
    proto: "k8s.io.api.apidiscovery.v2.APIResourceDiscovery",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("resource", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "responseKind",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_GROUPVERSIONKIND,
            )),
            true,
        ),
        FieldDef::new("scope", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "singularResource",
            4,
            K::Single(E::Scalar(S::String)),
            false,
        )
        .zero(Z::String("")),
        FieldDef::new("verbs", 5, K::List(E::Scalar(S::String)), false)
            .list(Some("set"), &[])
            .zero(Z::Null),
        FieldDef::new("shortNames", 6, K::List(E::Scalar(S::String)), true).list(Some("set"), &[]),
        FieldDef::new("categories", 7, K::List(E::Scalar(S::String)), true).list(Some("set"), &[]),
        FieldDef::new(
            "subresources",
            8,
            K::List(E::Message(
                &IO_K8S_API_APIDISCOVERY_V2_APISUBRESOURCEDISCOVERY,
            )),
            true,
        )
        .list(Some("map"), &["subresource"]),
    ],
};

pub(crate) static IO_K8S_API_APIDISCOVERY_V2_APISUBRESOURCEDISCOVERY: TypeDef = TypeDef {
    name: "io.k8s.api.apidiscovery.v2.APISubresourceDiscovery",
    proto: "k8s.io.api.apidiscovery.v2.APISubresourceDiscovery",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("subresource", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "responseKind",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_GROUPVERSIONKIND,
            )),
            true,
        ),
        FieldDef::new(
            "acceptedTypes",
            3,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_GROUPVERSIONKIND,
            )),
            true,
        )
        .list(Some("map"), &["group", "version", "kind"]),
        FieldDef::new("verbs", 4, K::List(E::Scalar(S::String)), false)
            .list(Some("set"), &[])
            .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_APIDISCOVERY_V2_APIVERSIONDISCOVERY: TypeDef = TypeDef {
    name: "io.k8s.api.apidiscovery.v2.APIVersionDiscovery",
    proto: "k8s.io.api.apidiscovery.v2.APIVersionDiscovery",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("version", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "resources",
            2,
            K::List(E::Message(&IO_K8S_API_APIDISCOVERY_V2_APIRESOURCEDISCOVERY)),
            true,
        )
        .list(Some("map"), &["resource"]),
        FieldDef::new("freshness", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_SERVERSTORAGEVERSION: TypeDef = TypeDef {
    name: "io.k8s.api.apiserverinternal.v1alpha1.ServerStorageVersion",
    proto: "k8s.io.api.apiserverinternal.v1alpha1.ServerStorageVersion",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("apiServerID", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("encodingVersion", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("decodableVersions", 3, K::List(E::Scalar(S::String)), true)
            .list(Some("set"), &[]),
        FieldDef::new("servedVersions", 4, K::List(E::Scalar(S::String)), true)
            .list(Some("set"), &[]),
    ],
};

pub(crate) static IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSION: TypeDef = TypeDef {
    name: "io.k8s.api.apiserverinternal.v1alpha1.StorageVersion",
    proto: "k8s.io.api.apiserverinternal.v1alpha1.StorageVersion",
    gvk: Some(Gvk {
        group: "internal.apiserver.k8s.io",
        version: "v1alpha1",
        kind: "StorageVersion",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONSPEC,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(
                &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONSTATUS,
            )),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONCONDITION: TypeDef =
    TypeDef {
        name: "io.k8s.api.apiserverinternal.v1alpha1.StorageVersionCondition",
        proto: "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionCondition",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
            FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
            FieldDef::new(
                "observedGeneration",
                3,
                K::Single(E::Scalar(S::Int64)),
                true,
            )
            .omits_zero(),
            FieldDef::new(
                "lastTransitionTime",
                4,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
                true,
            )
            .zero(Z::Null),
            FieldDef::new("reason", 5, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
            FieldDef::new("message", 6, K::Single(E::Scalar(S::String)), false).omits_zero(),
        ],
    };

pub(crate) static IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONLIST: TypeDef = TypeDef {
    name: "io.k8s.api.apiserverinternal.v1alpha1.StorageVersionList",
    proto: "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionList",
    gvk: Some(Gvk {
        group: "internal.apiserver.k8s.io",
        version: "v1alpha1",
        kind: "StorageVersionList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSION,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.apiserverinternal.v1alpha1.StorageVersionSpec",
    proto: "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.apiserverinternal.v1alpha1.StorageVersionStatus",
    proto: "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "storageVersions",
            1,
            K::List(E::Message(
                &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_SERVERSTORAGEVERSION,
            )),
            true,
        )
        .list(Some("map"), &["apiServerID"]),
        FieldDef::new(
            "commonEncodingVersion",
            2,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "conditions",
            3,
            K::List(E::Message(
                &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONCONDITION,
            )),
            true,
        )
        .list(Some("map"), &["type"]),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_CONTROLLERREVISION: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.ControllerRevision",
    proto: "k8s.io.api.apps.v1.ControllerRevision",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "ControllerRevision",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "data",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("revision", 3, K::Single(E::Scalar(S::Int64)), false).zero(Z::Number),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_CONTROLLERREVISIONLIST: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.ControllerRevisionList",
    proto: "k8s.io.api.apps.v1.ControllerRevisionList",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "ControllerRevisionList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_APPS_V1_CONTROLLERREVISION)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DAEMONSET: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DaemonSet",
    proto: "k8s.io.api.apps.v1.DaemonSet",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "DaemonSet",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_DAEMONSETSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_DAEMONSETSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DAEMONSETCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DaemonSetCondition",
    proto: "k8s.io.api.apps.v1.DaemonSetCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastTransitionTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DAEMONSETLIST: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DaemonSetList",
    proto: "k8s.io.api.apps.v1.DaemonSetList",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "DaemonSetList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_APPS_V1_DAEMONSET)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DAEMONSETSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DaemonSetSpec",
    proto: "k8s.io.api.apps.v1.DaemonSetSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "selector",
            1,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            false,
        )
        .zero(Z::Null),
        FieldDef::new(
            "template",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODTEMPLATESPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "updateStrategy",
            3,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_DAEMONSETUPDATESTRATEGY)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new("minReadySeconds", 4, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new(
            "revisionHistoryLimit",
            6,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DAEMONSETSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DaemonSetStatus",
    proto: "k8s.io.api.apps.v1.DaemonSetStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "currentNumberScheduled",
            1,
            K::Single(E::Scalar(S::Int32)),
            false,
        )
        .zero(Z::Number),
        FieldDef::new(
            "numberMisscheduled",
            2,
            K::Single(E::Scalar(S::Int32)),
            false,
        )
        .zero(Z::Number),
        FieldDef::new(
            "desiredNumberScheduled",
            3,
            K::Single(E::Scalar(S::Int32)),
            false,
        )
        .zero(Z::Number),
        FieldDef::new("numberReady", 4, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "observedGeneration",
            5,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "updatedNumberScheduled",
            6,
            K::Single(E::Scalar(S::Int32)),
            true,
        )
        .omits_zero(),
        FieldDef::new("numberAvailable", 7, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("numberUnavailable", 8, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("collisionCount", 9, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "conditions",
            10,
            K::List(E::Message(&IO_K8S_API_APPS_V1_DAEMONSETCONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DAEMONSETUPDATESTRATEGY: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DaemonSetUpdateStrategy",
    proto: "k8s.io.api.apps.v1.DaemonSetUpdateStrategy",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "rollingUpdate",
            2,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_ROLLINGUPDATEDAEMONSET)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DEPLOYMENT: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.Deployment",
    proto: "k8s.io.api.apps.v1.Deployment",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "Deployment",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_DEPLOYMENTSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_DEPLOYMENTSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DEPLOYMENTCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DeploymentCondition",
    proto: "k8s.io.api.apps.v1.DeploymentCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 4, 5, 2, 3],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "lastUpdateTime",
            6,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "lastTransitionTime",
            7,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DEPLOYMENTLIST: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DeploymentList",
    proto: "k8s.io.api.apps.v1.DeploymentList",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "DeploymentList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_APPS_V1_DEPLOYMENT)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DEPLOYMENTSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DeploymentSpec",
    proto: "k8s.io.api.apps.v1.DeploymentSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("replicas", 1, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "selector",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            false,
        )
        .zero(Z::Null),
        FieldDef::new(
            "template",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODTEMPLATESPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "strategy",
            4,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_DEPLOYMENTSTRATEGY)),
            true,
        )
        .patch(Some("retainKeys"), None)
        .zero(Z::Object),
        FieldDef::new("minReadySeconds", 5, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new(
            "revisionHistoryLimit",
            6,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
        FieldDef::new("paused", 7, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "progressDeadlineSeconds",
            9,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DEPLOYMENTSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DeploymentStatus",
    proto: "k8s.io.api.apps.v1.DeploymentStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 6, 3, 4, 8, 5, 7],
    fields: &[
        FieldDef::new(
            "observedGeneration",
            1,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
        FieldDef::new("replicas", 2, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("updatedReplicas", 3, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("availableReplicas", 4, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new(
            "unavailableReplicas",
            5,
            K::Single(E::Scalar(S::Int32)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "conditions",
            6,
            K::List(E::Message(&IO_K8S_API_APPS_V1_DEPLOYMENTCONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
        FieldDef::new("readyReplicas", 7, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("collisionCount", 8, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "terminatingReplicas",
            9,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_DEPLOYMENTSTRATEGY: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.DeploymentStrategy",
    proto: "k8s.io.api.apps.v1.DeploymentStrategy",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "rollingUpdate",
            2,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_ROLLINGUPDATEDEPLOYMENT)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_REPLICASET: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.ReplicaSet",
    proto: "k8s.io.api.apps.v1.ReplicaSet",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "ReplicaSet",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_REPLICASETSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_REPLICASETSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_REPLICASETCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.ReplicaSetCondition",
    proto: "k8s.io.api.apps.v1.ReplicaSetCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastTransitionTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_REPLICASETLIST: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.ReplicaSetList",
    proto: "k8s.io.api.apps.v1.ReplicaSetList",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "ReplicaSetList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_APPS_V1_REPLICASET)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_REPLICASETSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.ReplicaSetSpec",
    proto: "k8s.io.api.apps.v1.ReplicaSetSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 3, 1, 2],
    fields: &[
        FieldDef::new("replicas", 1, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "selector",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            false,
        )
        .zero(Z::Null),
        FieldDef::new(
            "template",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODTEMPLATESPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new("minReadySeconds", 4, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_REPLICASETSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.ReplicaSetStatus",
    proto: "k8s.io.api.apps.v1.ReplicaSetStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 3, 4, 6, 2, 5],
    fields: &[
        FieldDef::new("replicas", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "fullyLabeledReplicas",
            2,
            K::Single(E::Scalar(S::Int32)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "observedGeneration",
            3,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
        FieldDef::new("readyReplicas", 4, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("availableReplicas", 5, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new(
            "conditions",
            6,
            K::List(E::Message(&IO_K8S_API_APPS_V1_REPLICASETCONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
        FieldDef::new(
            "terminatingReplicas",
            7,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_ROLLINGUPDATEDAEMONSET: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.RollingUpdateDaemonSet",
    proto: "k8s.io.api.apps.v1.RollingUpdateDaemonSet",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "maxUnavailable",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            true,
        ),
        FieldDef::new(
            "maxSurge",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_ROLLINGUPDATEDEPLOYMENT: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.RollingUpdateDeployment",
    proto: "k8s.io.api.apps.v1.RollingUpdateDeployment",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "maxUnavailable",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            true,
        ),
        FieldDef::new(
            "maxSurge",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_ROLLINGUPDATESTATEFULSETSTRATEGY: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy",
    proto: "k8s.io.api.apps.v1.RollingUpdateStatefulSetStrategy",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("partition", 1, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "maxUnavailable",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_STATEFULSET: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.StatefulSet",
    proto: "k8s.io.api.apps.v1.StatefulSet",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "StatefulSet",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_STATEFULSETSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_STATEFULSETSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_STATEFULSETCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.StatefulSetCondition",
    proto: "k8s.io.api.apps.v1.StatefulSetCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastTransitionTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_STATEFULSETLIST: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.StatefulSetList",
    proto: "k8s.io.api.apps.v1.StatefulSetList",
    gvk: Some(Gvk {
        group: "apps",
        version: "v1",
        kind: "StatefulSetList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_APPS_V1_STATEFULSET)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_STATEFULSETORDINALS: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.StatefulSetOrdinals",
    proto: "k8s.io.api.apps.v1.StatefulSetOrdinals",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("start", 1, K::Single(E::Scalar(S::Int32)), true).zero(Z::Number)],
};

pub(crate) static IO_K8S_API_APPS_V1_STATEFULSETPERSISTENTVOLUMECLAIMRETENTIONPOLICY: TypeDef =
    TypeDef {
        name: "io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy",
        proto: "k8s.io.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("whenDeleted", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("whenScaled", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        ],
    };

pub(crate) static IO_K8S_API_APPS_V1_STATEFULSETSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.StatefulSetSpec",
    proto: "k8s.io.api.apps.v1.StatefulSetSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("replicas", 1, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "selector",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            false,
        )
        .zero(Z::Null),
        FieldDef::new(
            "template",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODTEMPLATESPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "volumeClaimTemplates",
            4,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIM)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("serviceName", 5, K::Single(E::Scalar(S::String)), true).zero(Z::String("")),
        FieldDef::new(
            "podManagementPolicy",
            6,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "updateStrategy",
            7,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_STATEFULSETUPDATESTRATEGY)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "revisionHistoryLimit",
            8,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
        FieldDef::new("minReadySeconds", 9, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new(
            "persistentVolumeClaimRetentionPolicy",
            10,
            K::Single(E::Message(
                &IO_K8S_API_APPS_V1_STATEFULSETPERSISTENTVOLUMECLAIMRETENTIONPOLICY,
            )),
            true,
        ),
        FieldDef::new(
            "ordinals",
            11,
            K::Single(E::Message(&IO_K8S_API_APPS_V1_STATEFULSETORDINALS)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_STATEFULSETSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.StatefulSetStatus",
    proto: "k8s.io.api.apps.v1.StatefulSetStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "observedGeneration",
            1,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
        FieldDef::new("replicas", 2, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("readyReplicas", 3, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("currentReplicas", 4, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("updatedReplicas", 5, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("currentRevision", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("updateRevision", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("collisionCount", 9, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "conditions",
            10,
            K::List(E::Message(&IO_K8S_API_APPS_V1_STATEFULSETCONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
        FieldDef::new(
            "availableReplicas",
            11,
            K::Single(E::Scalar(S::Int32)),
            true,
        )
        .zero(Z::Number),
    ],
};

pub(crate) static IO_K8S_API_APPS_V1_STATEFULSETUPDATESTRATEGY: TypeDef = TypeDef {
    name: "io.k8s.api.apps.v1.StatefulSetUpdateStrategy",
    proto: "k8s.io.api.apps.v1.StatefulSetUpdateStrategy",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "rollingUpdate",
            2,
            K::Single(E::Message(
                &IO_K8S_API_APPS_V1_ROLLINGUPDATESTATEFULSETSTRATEGY,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_BOUNDOBJECTREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.BoundObjectReference",
    proto: "k8s.io.api.authentication.v1.BoundObjectReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("kind", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("apiVersion", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("name", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("uid", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_SELFSUBJECTREVIEW: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.SelfSubjectReview",
    proto: "k8s.io.api.authentication.v1.SelfSubjectReview",
    gvk: Some(Gvk {
        group: "authentication.k8s.io",
        version: "v1",
        kind: "SelfSubjectReview",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            2,
            K::Single(E::Message(
                &IO_K8S_API_AUTHENTICATION_V1_SELFSUBJECTREVIEWSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_SELFSUBJECTREVIEWSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.SelfSubjectReviewStatus",
    proto: "k8s.io.api.authentication.v1.SelfSubjectReviewStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "userInfo",
        1,
        K::Single(E::Message(&IO_K8S_API_AUTHENTICATION_V1_USERINFO)),
        true,
    )
    .zero(Z::Object)],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_TOKENREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.TokenRequest",
    proto: "k8s.io.api.authentication.v1.TokenRequest",
    gvk: Some(Gvk {
        group: "authentication.k8s.io",
        version: "v1",
        kind: "TokenRequest",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTHENTICATION_V1_TOKENREQUESTSPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_AUTHENTICATION_V1_TOKENREQUESTSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_TOKENREQUESTSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.TokenRequestSpec",
    proto: "k8s.io.api.authentication.v1.TokenRequestSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 2, 1],
    fields: &[
        FieldDef::new("audiences", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new(
            "boundObjectRef",
            3,
            K::Single(E::Message(
                &IO_K8S_API_AUTHENTICATION_V1_BOUNDOBJECTREFERENCE,
            )),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("expirationSeconds", 4, K::Single(E::Scalar(S::Int64)), true).zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_TOKENREQUESTSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.TokenRequestStatus",
    proto: "k8s.io.api.authentication.v1.TokenRequestStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("token", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "expirationTimestamp",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_TOKENREVIEW: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.TokenReview",
    proto: "k8s.io.api.authentication.v1.TokenReview",
    gvk: Some(Gvk {
        group: "authentication.k8s.io",
        version: "v1",
        kind: "TokenReview",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTHENTICATION_V1_TOKENREVIEWSPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_AUTHENTICATION_V1_TOKENREVIEWSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_TOKENREVIEWSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.TokenReviewSpec",
    proto: "k8s.io.api.authentication.v1.TokenReviewSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("token", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("audiences", 2, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_TOKENREVIEWSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.TokenReviewStatus",
    proto: "k8s.io.api.authentication.v1.TokenReviewStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 3, 2],
    fields: &[
        FieldDef::new("authenticated", 1, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "user",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTHENTICATION_V1_USERINFO)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new("error", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("audiences", 4, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_AUTHENTICATION_V1_USERINFO: TypeDef = TypeDef {
    name: "io.k8s.api.authentication.v1.UserInfo",
    proto: "k8s.io.api.authentication.v1.UserInfo",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("username", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("uid", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("groups", 3, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("extra", 4, K::Map(E::StringList), true),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_FIELDSELECTORATTRIBUTES: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.FieldSelectorAttributes",
    proto: "k8s.io.api.authorization.v1.FieldSelectorAttributes",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("rawSelector", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "requirements",
            2,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_FIELDSELECTORREQUIREMENT,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_LABELSELECTORATTRIBUTES: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.LabelSelectorAttributes",
    proto: "k8s.io.api.authorization.v1.LabelSelectorAttributes",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("rawSelector", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "requirements",
            2,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTORREQUIREMENT,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_LOCALSUBJECTACCESSREVIEW: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.LocalSubjectAccessReview",
    proto: "k8s.io.api.authorization.v1.LocalSubjectAccessReview",
    gvk: Some(Gvk {
        group: "authorization.k8s.io",
        version: "v1",
        kind: "LocalSubjectAccessReview",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEWSPEC,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEWSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_NONRESOURCEATTRIBUTES: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.NonResourceAttributes",
    proto: "k8s.io.api.authorization.v1.NonResourceAttributes",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("path", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("verb", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_NONRESOURCERULE: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.NonResourceRule",
    proto: "k8s.io.api.authorization.v1.NonResourceRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("verbs", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new("nonResourceURLs", 2, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_RESOURCEATTRIBUTES: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.ResourceAttributes",
    proto: "k8s.io.api.authorization.v1.ResourceAttributes",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("namespace", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("verb", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("group", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("version", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resource", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("subresource", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("name", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "fieldSelector",
            8,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_FIELDSELECTORATTRIBUTES,
            )),
            true,
        ),
        FieldDef::new(
            "labelSelector",
            9,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_LABELSELECTORATTRIBUTES,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_RESOURCERULE: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.ResourceRule",
    proto: "k8s.io.api.authorization.v1.ResourceRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("verbs", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new("apiGroups", 2, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("resources", 3, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("resourceNames", 4, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTACCESSREVIEW: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.SelfSubjectAccessReview",
    proto: "k8s.io.api.authorization.v1.SelfSubjectAccessReview",
    gvk: Some(Gvk {
        group: "authorization.k8s.io",
        version: "v1",
        kind: "SelfSubjectAccessReview",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTACCESSREVIEWSPEC,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEWSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTACCESSREVIEWSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec",
    proto: "k8s.io.api.authorization.v1.SelfSubjectAccessReviewSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "resourceAttributes",
            1,
            K::Single(E::Message(&IO_K8S_API_AUTHORIZATION_V1_RESOURCEATTRIBUTES)),
            true,
        ),
        FieldDef::new(
            "nonResourceAttributes",
            2,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_NONRESOURCEATTRIBUTES,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTRULESREVIEW: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.SelfSubjectRulesReview",
    proto: "k8s.io.api.authorization.v1.SelfSubjectRulesReview",
    gvk: Some(Gvk {
        group: "authorization.k8s.io",
        version: "v1",
        kind: "SelfSubjectRulesReview",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTRULESREVIEWSPEC,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_SUBJECTRULESREVIEWSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTRULESREVIEWSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec",
    proto: "k8s.io.api.authorization.v1.SelfSubjectRulesReviewSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("namespace", 1, K::Single(E::Scalar(S::String)), true).omits_zero()],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEW: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.SubjectAccessReview",
    proto: "k8s.io.api.authorization.v1.SubjectAccessReview",
    gvk: Some(Gvk {
        group: "authorization.k8s.io",
        version: "v1",
        kind: "SubjectAccessReview",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEWSPEC,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEWSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEWSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.SubjectAccessReviewSpec",
    proto: "k8s.io.api.authorization.v1.SubjectAccessReviewSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "resourceAttributes",
            1,
            K::Single(E::Message(&IO_K8S_API_AUTHORIZATION_V1_RESOURCEATTRIBUTES)),
            true,
        ),
        FieldDef::new(
            "nonResourceAttributes",
            2,
            K::Single(E::Message(
                &IO_K8S_API_AUTHORIZATION_V1_NONRESOURCEATTRIBUTES,
            )),
            true,
        ),
        FieldDef::new("user", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("groups", 4, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("extra", 5, K::Map(E::StringList), true),
        FieldDef::new("uid", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEWSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.SubjectAccessReviewStatus",
    proto: "k8s.io.api.authorization.v1.SubjectAccessReviewStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 3, 1, 2],
    fields: &[
        FieldDef::new("allowed", 1, K::Single(E::Scalar(S::Bool)), false).zero(Z::False),
        FieldDef::new("reason", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("evaluationError", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("denied", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_AUTHORIZATION_V1_SUBJECTRULESREVIEWSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.authorization.v1.SubjectRulesReviewStatus",
    proto: "k8s.io.api.authorization.v1.SubjectRulesReviewStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "resourceRules",
            1,
            K::List(E::Message(&IO_K8S_API_AUTHORIZATION_V1_RESOURCERULE)),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "nonResourceRules",
            2,
            K::List(E::Message(&IO_K8S_API_AUTHORIZATION_V1_NONRESOURCERULE)),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new("incomplete", 3, K::Single(E::Scalar(S::Bool)), false).zero(Z::False),
        FieldDef::new("evaluationError", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V1_CROSSVERSIONOBJECTREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v1.CrossVersionObjectReference",
    proto: "k8s.io.api.autoscaling.v1.CrossVersionObjectReference",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("kind", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("apiVersion", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALER: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler",
    proto: "k8s.io.api.autoscaling.v1.HorizontalPodAutoscaler",
    gvk: Some(Gvk {
        group: "autoscaling",
        version: "v1",
        kind: "HorizontalPodAutoscaler",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALERSPEC,
            )),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALERSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALERLIST: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerList",
    proto: "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerList",
    gvk: Some(Gvk {
        group: "autoscaling",
        version: "v1",
        kind: "HorizontalPodAutoscalerList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALER,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALERSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec",
    proto: "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "scaleTargetRef",
            1,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V1_CROSSVERSIONOBJECTREFERENCE,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("minReplicas", 2, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("maxReplicas", 3, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "targetCPUUtilizationPercentage",
            4,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALERSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerStatus",
    proto: "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "observedGeneration",
            1,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
        FieldDef::new(
            "lastScaleTime",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
        FieldDef::new("currentReplicas", 3, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("desiredReplicas", 4, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "currentCPUUtilizationPercentage",
            5,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V1_SCALE: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v1.Scale",
    proto: "k8s.io.api.autoscaling.v1.Scale",
    gvk: Some(Gvk {
        group: "autoscaling",
        version: "v1",
        kind: "Scale",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V1_SCALESPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V1_SCALESTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V1_SCALESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v1.ScaleSpec",
    proto: "k8s.io.api.autoscaling.v1.ScaleSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("replicas", 1, K::Single(E::Scalar(S::Int32)), true).omits_zero()],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V1_SCALESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v1.ScaleStatus",
    proto: "k8s.io.api.autoscaling.v1.ScaleStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("replicas", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("selector", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_CONTAINERRESOURCEMETRICSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.ContainerResourceMetricSource",
    proto: "k8s.io.api.autoscaling.v2.ContainerResourceMetricSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "target",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICTARGET)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("container", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_CONTAINERRESOURCEMETRICSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.ContainerResourceMetricStatus",
    proto: "k8s.io.api.autoscaling.v2.ContainerResourceMetricStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "current",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICVALUESTATUS)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("container", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_CROSSVERSIONOBJECTREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.CrossVersionObjectReference",
    proto: "k8s.io.api.autoscaling.v2.CrossVersionObjectReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("kind", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("apiVersion", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_EXTERNALMETRICSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.ExternalMetricSource",
    proto: "k8s.io.api.autoscaling.v2.ExternalMetricSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metric",
            1,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICIDENTIFIER)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "target",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICTARGET)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_EXTERNALMETRICSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.ExternalMetricStatus",
    proto: "k8s.io.api.autoscaling.v2.ExternalMetricStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metric",
            1,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICIDENTIFIER)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "current",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICVALUESTATUS)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_HPASCALINGPOLICY: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.HPAScalingPolicy",
    proto: "k8s.io.api.autoscaling.v2.HPAScalingPolicy",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("periodSeconds", 3, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_HPASCALINGRULES: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.HPAScalingRules",
    proto: "k8s.io.api.autoscaling.v2.HPAScalingRules",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 0, 1, 3],
    fields: &[
        FieldDef::new("selectPolicy", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "policies",
            2,
            K::List(E::Message(&IO_K8S_API_AUTOSCALING_V2_HPASCALINGPOLICY)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "stabilizationWindowSeconds",
            3,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
        FieldDef::new(
            "tolerance",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALER: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
    proto: "k8s.io.api.autoscaling.v2.HorizontalPodAutoscaler",
    gvk: Some(Gvk {
        group: "autoscaling",
        version: "v2",
        kind: "HorizontalPodAutoscaler",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERSPEC,
            )),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERBEHAVIOR: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior",
    proto: "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerBehavior",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "scaleUp",
            1,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_HPASCALINGRULES)),
            true,
        ),
        FieldDef::new(
            "scaleDown",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_HPASCALINGRULES)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition",
    proto: "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastTransitionTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERLIST: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerList",
    proto: "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerList",
    gvk: Some(Gvk {
        group: "autoscaling",
        version: "v2",
        kind: "HorizontalPodAutoscalerList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALER,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec",
    proto: "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "scaleTargetRef",
            1,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_CROSSVERSIONOBJECTREFERENCE,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("minReplicas", 2, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("maxReplicas", 3, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "metrics",
            4,
            K::List(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICSPEC)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "behavior",
            5,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERBEHAVIOR,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus",
    proto: "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "observedGeneration",
            1,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
        FieldDef::new(
            "lastScaleTime",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
        FieldDef::new("currentReplicas", 3, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("desiredReplicas", 4, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "currentMetrics",
            5,
            K::List(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICSTATUS)),
            true,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "conditions",
            6,
            K::List(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERCONDITION,
            )),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_METRICIDENTIFIER: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.MetricIdentifier",
    proto: "k8s.io.api.autoscaling.v2.MetricIdentifier",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "selector",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_METRICSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.MetricSpec",
    proto: "k8s.io.api.autoscaling.v2.MetricSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 3, 5, 4],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "object",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_OBJECTMETRICSOURCE)),
            true,
        ),
        FieldDef::new(
            "pods",
            3,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_PODSMETRICSOURCE)),
            true,
        ),
        FieldDef::new(
            "resource",
            4,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_RESOURCEMETRICSOURCE)),
            true,
        ),
        FieldDef::new(
            "external",
            5,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_EXTERNALMETRICSOURCE)),
            true,
        ),
        FieldDef::new(
            "containerResource",
            7,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_CONTAINERRESOURCEMETRICSOURCE,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_METRICSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.MetricStatus",
    proto: "k8s.io.api.autoscaling.v2.MetricStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 3, 5, 4],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "object",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_OBJECTMETRICSTATUS)),
            true,
        ),
        FieldDef::new(
            "pods",
            3,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_PODSMETRICSTATUS)),
            true,
        ),
        FieldDef::new(
            "resource",
            4,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_RESOURCEMETRICSTATUS)),
            true,
        ),
        FieldDef::new(
            "external",
            5,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_EXTERNALMETRICSTATUS)),
            true,
        ),
        FieldDef::new(
            "containerResource",
            7,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_CONTAINERRESOURCEMETRICSTATUS,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_METRICTARGET: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.MetricTarget",
    proto: "k8s.io.api.autoscaling.v2.MetricTarget",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "value",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "averageValue",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "averageUtilization",
            4,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_METRICVALUESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.MetricValueStatus",
    proto: "k8s.io.api.autoscaling.v2.MetricValueStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "value",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "averageValue",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "averageUtilization",
            3,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_OBJECTMETRICSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.ObjectMetricSource",
    proto: "k8s.io.api.autoscaling.v2.ObjectMetricSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "describedObject",
            1,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_CROSSVERSIONOBJECTREFERENCE,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "target",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICTARGET)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "metric",
            3,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICIDENTIFIER)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_OBJECTMETRICSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.ObjectMetricStatus",
    proto: "k8s.io.api.autoscaling.v2.ObjectMetricStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metric",
            1,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICIDENTIFIER)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "current",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICVALUESTATUS)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "describedObject",
            3,
            K::Single(E::Message(
                &IO_K8S_API_AUTOSCALING_V2_CROSSVERSIONOBJECTREFERENCE,
            )),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_PODSMETRICSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.PodsMetricSource",
    proto: "k8s.io.api.autoscaling.v2.PodsMetricSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metric",
            1,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICIDENTIFIER)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "target",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICTARGET)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_PODSMETRICSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.PodsMetricStatus",
    proto: "k8s.io.api.autoscaling.v2.PodsMetricStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metric",
            1,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICIDENTIFIER)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "current",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICVALUESTATUS)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_RESOURCEMETRICSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.ResourceMetricSource",
    proto: "k8s.io.api.autoscaling.v2.ResourceMetricSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "target",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICTARGET)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_AUTOSCALING_V2_RESOURCEMETRICSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.autoscaling.v2.ResourceMetricStatus",
    proto: "k8s.io.api.autoscaling.v2.ResourceMetricStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "current",
            2,
            K::Single(E::Message(&IO_K8S_API_AUTOSCALING_V2_METRICVALUESTATUS)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_CRONJOB: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.CronJob",
    proto: "k8s.io.api.batch.v1.CronJob",
    gvk: Some(Gvk {
        group: "batch",
        version: "v1",
        kind: "CronJob",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_BATCH_V1_CRONJOBSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_BATCH_V1_CRONJOBSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_CRONJOBLIST: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.CronJobList",
    proto: "k8s.io.api.batch.v1.CronJobList",
    gvk: Some(Gvk {
        group: "batch",
        version: "v1",
        kind: "CronJobList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_BATCH_V1_CRONJOB)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_CRONJOBSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.CronJobSpec",
    proto: "k8s.io.api.batch.v1.CronJobSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 7, 1, 2, 3, 4, 5, 6],
    fields: &[
        FieldDef::new("schedule", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "startingDeadlineSeconds",
            2,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
        FieldDef::new(
            "concurrencyPolicy",
            3,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("suspend", 4, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "jobTemplate",
            5,
            K::Single(E::Message(&IO_K8S_API_BATCH_V1_JOBTEMPLATESPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "successfulJobsHistoryLimit",
            6,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
        FieldDef::new(
            "failedJobsHistoryLimit",
            7,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
        FieldDef::new("timeZone", 8, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_CRONJOBSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.CronJobStatus",
    proto: "k8s.io.api.batch.v1.CronJobStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "active",
            1,
            K::List(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "lastScheduleTime",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
        FieldDef::new(
            "lastSuccessfulTime",
            5,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_JOB: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.Job",
    proto: "k8s.io.api.batch.v1.Job",
    gvk: Some(Gvk {
        group: "batch",
        version: "v1",
        kind: "Job",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_BATCH_V1_JOBSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_BATCH_V1_JOBSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_JOBCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.JobCondition",
    proto: "k8s.io.api.batch.v1.JobCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastProbeTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "lastTransitionTime",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_JOBLIST: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.JobList",
    proto: "k8s.io.api.batch.v1.JobList",
    gvk: Some(Gvk {
        group: "batch",
        version: "v1",
        kind: "JobList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_BATCH_V1_JOB)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_JOBSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.JobSpec",
    proto: "k8s.io.api.batch.v1.JobSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 10, 15, 6, 11, 12, 3, 4, 5, 7, 8, 9, 13, 14],
    fields: &[
        FieldDef::new("parallelism", 1, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("completions", 2, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "activeDeadlineSeconds",
            3,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
        FieldDef::new(
            "selector",
            4,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new("manualSelector", 5, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "template",
            6,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODTEMPLATESPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("backoffLimit", 7, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "ttlSecondsAfterFinished",
            8,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
        FieldDef::new("completionMode", 9, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("suspend", 10, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "podFailurePolicy",
            11,
            K::Single(E::Message(&IO_K8S_API_BATCH_V1_PODFAILUREPOLICY)),
            true,
        ),
        FieldDef::new(
            "backoffLimitPerIndex",
            12,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
        FieldDef::new("maxFailedIndexes", 13, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "podReplacementPolicy",
            14,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new("managedBy", 15, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "successPolicy",
            16,
            K::Single(E::Message(&IO_K8S_API_BATCH_V1_SUCCESSPOLICY)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_JOBSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.JobStatus",
    proto: "k8s.io.api.batch.v1.JobStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 3, 4, 5, 10, 6, 9, 7, 8],
    fields: &[
        FieldDef::new(
            "conditions",
            1,
            K::List(E::Message(&IO_K8S_API_BATCH_V1_JOBCONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "startTime",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
        FieldDef::new(
            "completionTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
        FieldDef::new("active", 4, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("succeeded", 5, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("failed", 6, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("completedIndexes", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "uncountedTerminatedPods",
            8,
            K::Single(E::Message(&IO_K8S_API_BATCH_V1_UNCOUNTEDTERMINATEDPODS)),
            true,
        ),
        FieldDef::new("ready", 9, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("failedIndexes", 10, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("terminating", 11, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_JOBTEMPLATESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.JobTemplateSpec",
    proto: "k8s.io.api.batch.v1.JobTemplateSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_BATCH_V1_JOBSPEC)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_PODFAILUREPOLICY: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.PodFailurePolicy",
    proto: "k8s.io.api.batch.v1.PodFailurePolicy",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "rules",
        1,
        K::List(E::Message(&IO_K8S_API_BATCH_V1_PODFAILUREPOLICYRULE)),
        false,
    )
    .list(Some("atomic"), &[])
    .zero(Z::Null)],
};

pub(crate) static IO_K8S_API_BATCH_V1_PODFAILUREPOLICYONEXITCODESREQUIREMENT: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement",
    proto: "k8s.io.api.batch.v1.PodFailurePolicyOnExitCodesRequirement",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("containerName", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("operator", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("values", 3, K::List(E::Scalar(S::Int32)), false)
            .list(Some("set"), &[])
            .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_PODFAILUREPOLICYONPODCONDITIONSPATTERN: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern",
    proto: "k8s.io.api.batch.v1.PodFailurePolicyOnPodConditionsPattern",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_PODFAILUREPOLICYRULE: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.PodFailurePolicyRule",
    proto: "k8s.io.api.batch.v1.PodFailurePolicyRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("action", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "onExitCodes",
            2,
            K::Single(E::Message(
                &IO_K8S_API_BATCH_V1_PODFAILUREPOLICYONEXITCODESREQUIREMENT,
            )),
            true,
        ),
        FieldDef::new(
            "onPodConditions",
            3,
            K::List(E::Message(
                &IO_K8S_API_BATCH_V1_PODFAILUREPOLICYONPODCONDITIONSPATTERN,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_SUCCESSPOLICY: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.SuccessPolicy",
    proto: "k8s.io.api.batch.v1.SuccessPolicy",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "rules",
        1,
        K::List(E::Message(&IO_K8S_API_BATCH_V1_SUCCESSPOLICYRULE)),
        false,
    )
    .list(Some("atomic"), &[])
    .zero(Z::Null)],
};

pub(crate) static IO_K8S_API_BATCH_V1_SUCCESSPOLICYRULE: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.SuccessPolicyRule",
    proto: "k8s.io.api.batch.v1.SuccessPolicyRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("succeededIndexes", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("succeededCount", 2, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_BATCH_V1_UNCOUNTEDTERMINATEDPODS: TypeDef = TypeDef {
    name: "io.k8s.api.batch.v1.UncountedTerminatedPods",
    proto: "k8s.io.api.batch.v1.UncountedTerminatedPods",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("succeeded", 1, K::List(E::Scalar(S::String)), true).list(Some("set"), &[]),
        FieldDef::new("failed", 2, K::List(E::Scalar(S::String)), true).list(Some("set"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1.CertificateSigningRequest",
    proto: "k8s.io.api.certificates.v1.CertificateSigningRequest",
    gvk: Some(Gvk {
        group: "certificates.k8s.io",
        version: "v1",
        kind: "CertificateSigningRequest",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTSPEC,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(
                &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTCONDITION: TypeDef =
    TypeDef {
        name: "io.k8s.api.certificates.v1.CertificateSigningRequestCondition",
        proto: "k8s.io.api.certificates.v1.CertificateSigningRequestCondition",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[0, 5, 1, 2, 3, 4],
        fields: &[
            FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
            FieldDef::new("reason", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("message", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "lastUpdateTime",
                4,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
                true,
            )
            .zero(Z::Null),
            FieldDef::new(
                "lastTransitionTime",
                5,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
                true,
            )
            .zero(Z::Null),
            FieldDef::new("status", 6, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        ],
    };

pub(crate) static IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTLIST: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1.CertificateSigningRequestList",
    proto: "k8s.io.api.certificates.v1.CertificateSigningRequestList",
    gvk: Some(Gvk {
        group: "certificates.k8s.io",
        version: "v1",
        kind: "CertificateSigningRequestList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUEST,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1.CertificateSigningRequestSpec",
    proto: "k8s.io.api.certificates.v1.CertificateSigningRequestSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 6, 7, 4, 1, 2, 3, 5],
    fields: &[
        FieldDef::new("request", 1, K::Single(E::Scalar(S::Bytes)), false).zero(Z::Null),
        FieldDef::new("username", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("uid", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("groups", 4, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("usages", 5, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("extra", 6, K::Map(E::StringList), true),
        FieldDef::new("signerName", 7, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("expirationSeconds", 8, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1.CertificateSigningRequestStatus",
    proto: "k8s.io.api.certificates.v1.CertificateSigningRequestStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "conditions",
            1,
            K::List(E::Message(
                &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTCONDITION,
            )),
            true,
        )
        .list(Some("map"), &["type"]),
        FieldDef::new("certificate", 2, K::Single(E::Scalar(S::Bytes)), true),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLE: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1alpha1.ClusterTrustBundle",
    proto: "k8s.io.api.certificates.v1alpha1.ClusterTrustBundle",
    gvk: Some(Gvk {
        group: "certificates.k8s.io",
        version: "v1alpha1",
        kind: "ClusterTrustBundle",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLESPEC,
            )),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLELIST: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1alpha1.ClusterTrustBundleList",
    proto: "k8s.io.api.certificates.v1alpha1.ClusterTrustBundleList",
    gvk: Some(Gvk {
        group: "certificates.k8s.io",
        version: "v1alpha1",
        kind: "ClusterTrustBundleList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLE,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1alpha1.ClusterTrustBundleSpec",
    proto: "k8s.io.api.certificates.v1alpha1.ClusterTrustBundleSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("signerName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("trustBundle", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLE: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1beta1.ClusterTrustBundle",
    proto: "k8s.io.api.certificates.v1beta1.ClusterTrustBundle",
    gvk: Some(Gvk {
        group: "certificates.k8s.io",
        version: "v1beta1",
        kind: "ClusterTrustBundle",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLESPEC,
            )),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLELIST: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1beta1.ClusterTrustBundleList",
    proto: "k8s.io.api.certificates.v1beta1.ClusterTrustBundleList",
    gvk: Some(Gvk {
        group: "certificates.k8s.io",
        version: "v1beta1",
        kind: "ClusterTrustBundleList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLE,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.certificates.v1beta1.ClusterTrustBundleSpec",
    proto: "k8s.io.api.certificates.v1beta1.ClusterTrustBundleSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("signerName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("trustBundle", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_COORDINATION_V1_LEASE: TypeDef = TypeDef {
    name: "io.k8s.api.coordination.v1.Lease",
    proto: "k8s.io.api.coordination.v1.Lease",
    gvk: Some(Gvk {
        group: "coordination.k8s.io",
        version: "v1",
        kind: "Lease",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_COORDINATION_V1_LEASESPEC)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_COORDINATION_V1_LEASELIST: TypeDef = TypeDef {
    name: "io.k8s.api.coordination.v1.LeaseList",
    proto: "k8s.io.api.coordination.v1.LeaseList",
    gvk: Some(Gvk {
        group: "coordination.k8s.io",
        version: "v1",
        kind: "LeaseList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_COORDINATION_V1_LEASE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_COORDINATION_V1_LEASESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.coordination.v1.LeaseSpec",
    proto: "k8s.io.api.coordination.v1.LeaseSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("holderIdentity", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "leaseDurationSeconds",
            2,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
        FieldDef::new(
            "acquireTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            true,
        ),
        FieldDef::new(
            "renewTime",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            true,
        ),
        FieldDef::new("leaseTransitions", 5, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("strategy", 6, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("preferredHolder", 7, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATE: TypeDef = TypeDef {
    name: "io.k8s.api.coordination.v1alpha2.LeaseCandidate",
    proto: "k8s.io.api.coordination.v1alpha2.LeaseCandidate",
    gvk: Some(Gvk {
        group: "coordination.k8s.io",
        version: "v1alpha2",
        kind: "LeaseCandidate",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATESPEC,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATELIST: TypeDef = TypeDef {
    name: "io.k8s.api.coordination.v1alpha2.LeaseCandidateList",
    proto: "k8s.io.api.coordination.v1alpha2.LeaseCandidateList",
    gvk: Some(Gvk {
        group: "coordination.k8s.io",
        version: "v1alpha2",
        kind: "LeaseCandidateList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.coordination.v1alpha2.LeaseCandidateSpec",
    proto: "k8s.io.api.coordination.v1alpha2.LeaseCandidateSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("leaseName", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "pingTime",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            true,
        ),
        FieldDef::new(
            "renewTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            true,
        ),
        FieldDef::new("binaryVersion", 4, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("emulationVersion", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("strategy", 6, K::Single(E::Scalar(S::String)), false).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATE: TypeDef = TypeDef {
    name: "io.k8s.api.coordination.v1beta1.LeaseCandidate",
    proto: "k8s.io.api.coordination.v1beta1.LeaseCandidate",
    gvk: Some(Gvk {
        group: "coordination.k8s.io",
        version: "v1beta1",
        kind: "LeaseCandidate",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATESPEC,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATELIST: TypeDef = TypeDef {
    name: "io.k8s.api.coordination.v1beta1.LeaseCandidateList",
    proto: "k8s.io.api.coordination.v1beta1.LeaseCandidateList",
    gvk: Some(Gvk {
        group: "coordination.k8s.io",
        version: "v1beta1",
        kind: "LeaseCandidateList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.coordination.v1beta1.LeaseCandidateSpec",
    proto: "k8s.io.api.coordination.v1beta1.LeaseCandidateSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("leaseName", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "pingTime",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            true,
        ),
        FieldDef::new(
            "renewTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            true,
        ),
        FieldDef::new("binaryVersion", 4, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("emulationVersion", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("strategy", 6, K::Single(E::Scalar(S::String)), false).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_AWSELASTICBLOCKSTOREVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource",
    proto: "k8s.io.api.core.v1.AWSElasticBlockStoreVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("volumeID", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("partition", 3, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("readOnly", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_AFFINITY: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Affinity",
    proto: "k8s.io.api.core.v1.Affinity",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "nodeAffinity",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODEAFFINITY)),
            true,
        ),
        FieldDef::new(
            "podAffinity",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODAFFINITY)),
            true,
        ),
        FieldDef::new(
            "podAntiAffinity",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODANTIAFFINITY)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_APPARMORPROFILE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.AppArmorProfile",
    proto: "k8s.io.api.core.v1.AppArmorProfile",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("localhostProfile", 2, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ATTACHEDVOLUME: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.AttachedVolume",
    proto: "k8s.io.api.core.v1.AttachedVolume",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("devicePath", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_AZUREDISKVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.AzureDiskVolumeSource",
    proto: "k8s.io.api.core.v1.AzureDiskVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("diskName", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("diskURI", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("cachingMode", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("fsType", 4, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("readOnly", 5, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("kind", 6, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_AZUREFILEPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.AzureFilePersistentVolumeSource",
    proto: "k8s.io.api.core.v1.AzureFilePersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("secretName", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("shareName", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("secretNamespace", 4, K::Single(E::Scalar(S::String)), true).zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_AZUREFILEVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.AzureFileVolumeSource",
    proto: "k8s.io.api.core.v1.AzureFileVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("secretName", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("shareName", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_BINDING: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Binding",
    proto: "k8s.io.api.core.v1.Binding",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "Binding",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "target",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CSIPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.CSIPersistentVolumeSource",
    proto: "k8s.io.api.core.v1.CSIPersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("volumeHandle", 2, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("fsType", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("volumeAttributes", 5, K::Map(E::Scalar(S::String)), true),
        FieldDef::new(
            "controllerPublishSecretRef",
            6,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
        FieldDef::new(
            "nodeStageSecretRef",
            7,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
        FieldDef::new(
            "nodePublishSecretRef",
            8,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
        FieldDef::new(
            "controllerExpandSecretRef",
            9,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
        FieldDef::new(
            "nodeExpandSecretRef",
            10,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CSIVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.CSIVolumeSource",
    proto: "k8s.io.api.core.v1.CSIVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 2, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("fsType", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("volumeAttributes", 4, K::Map(E::Scalar(S::String)), true),
        FieldDef::new(
            "nodePublishSecretRef",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CAPABILITIES: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Capabilities",
    proto: "k8s.io.api.core.v1.Capabilities",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("add", 1, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("drop", 2, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CEPHFSPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.CephFSPersistentVolumeSource",
    proto: "k8s.io.api.core.v1.CephFSPersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("monitors", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new("path", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("user", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("secretFile", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
        FieldDef::new("readOnly", 6, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CEPHFSVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.CephFSVolumeSource",
    proto: "k8s.io.api.core.v1.CephFSVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("monitors", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new("path", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("user", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("secretFile", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        ),
        FieldDef::new("readOnly", 6, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CINDERPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.CinderPersistentVolumeSource",
    proto: "k8s.io.api.core.v1.CinderPersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("volumeID", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            4,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CINDERVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.CinderVolumeSource",
    proto: "k8s.io.api.core.v1.CinderVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("volumeID", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            4,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CLIENTIPCONFIG: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ClientIPConfig",
    proto: "k8s.io.api.core.v1.ClientIPConfig",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "timeoutSeconds",
        1,
        K::Single(E::Scalar(S::Int32)),
        true,
    )],
};

pub(crate) static IO_K8S_API_CORE_V1_CLUSTERTRUSTBUNDLEPROJECTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ClusterTrustBundleProjection",
    proto: "k8s.io.api.core.v1.ClusterTrustBundleProjection",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 4, 3],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("signerName", 2, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "labelSelector",
            3,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new("path", 4, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("optional", 5, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_COMPONENTCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ComponentCondition",
    proto: "k8s.io.api.core.v1.ComponentCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("message", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("error", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_COMPONENTSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ComponentStatus",
    proto: "k8s.io.api.core.v1.ComponentStatus",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ComponentStatus",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "conditions",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_COMPONENTCONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_COMPONENTSTATUSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ComponentStatusList",
    proto: "k8s.io.api.core.v1.ComponentStatusList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ComponentStatusList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_COMPONENTSTATUS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONFIGMAP: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ConfigMap",
    proto: "k8s.io.api.core.v1.ConfigMap",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ConfigMap",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 5, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("data", 2, K::Map(E::Scalar(S::String)), true),
        FieldDef::new("binaryData", 3, K::Map(E::Scalar(S::Bytes)), true),
        FieldDef::new("immutable", 4, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONFIGMAPENVSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ConfigMapEnvSource",
    proto: "k8s.io.api.core.v1.ConfigMapEnvSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new("optional", 2, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONFIGMAPKEYSELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ConfigMapKeySelector",
    proto: "k8s.io.api.core.v1.ConfigMapKeySelector",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new(
            "",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new("key", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("optional", 3, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONFIGMAPLIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ConfigMapList",
    proto: "k8s.io.api.core.v1.ConfigMapList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ConfigMapList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONFIGMAP)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONFIGMAPNODECONFIGSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ConfigMapNodeConfigSource",
    proto: "k8s.io.api.core.v1.ConfigMapNodeConfigSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("namespace", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("uid", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resourceVersion", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "kubeletConfigKey",
            5,
            K::Single(E::Scalar(S::String)),
            false,
        )
        .zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONFIGMAPPROJECTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ConfigMapProjection",
    proto: "k8s.io.api.core.v1.ConfigMapProjection",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_KEYTOPATH)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("optional", 4, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONFIGMAPVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ConfigMapVolumeSource",
    proto: "k8s.io.api.core.v1.ConfigMapVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_KEYTOPATH)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("defaultMode", 3, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("optional", 4, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINER: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Container",
    proto: "k8s.io.api.core.v1.Container",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[
        0, 1, 2, 3, 4, 5, 18, 6, 7, 22, 23, 8, 20, 9, 10, 21, 11, 12, 19, 13, 14, 15, 16, 17,
    ],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("image", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("command", 3, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("args", 4, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("workingDir", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "ports",
            6,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINERPORT)),
            true,
        )
        .patch(Some("merge"), Some("containerPort"))
        .list(Some("map"), &["containerPort", "protocol"]),
        FieldDef::new(
            "env",
            7,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ENVVAR)),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new(
            "resources",
            8,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RESOURCEREQUIREMENTS)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "volumeMounts",
            9,
            K::List(E::Message(&IO_K8S_API_CORE_V1_VOLUMEMOUNT)),
            true,
        )
        .patch(Some("merge"), Some("mountPath"))
        .list(Some("map"), &["mountPath"]),
        FieldDef::new(
            "livenessProbe",
            10,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PROBE)),
            true,
        ),
        FieldDef::new(
            "readinessProbe",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PROBE)),
            true,
        ),
        FieldDef::new(
            "lifecycle",
            12,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LIFECYCLE)),
            true,
        ),
        FieldDef::new(
            "terminationMessagePath",
            13,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("imagePullPolicy", 14, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "securityContext",
            15,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECURITYCONTEXT)),
            true,
        ),
        FieldDef::new("stdin", 16, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("stdinOnce", 17, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("tty", 18, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "envFrom",
            19,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ENVFROMSOURCE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "terminationMessagePolicy",
            20,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "volumeDevices",
            21,
            K::List(E::Message(&IO_K8S_API_CORE_V1_VOLUMEDEVICE)),
            true,
        )
        .patch(Some("merge"), Some("devicePath"))
        .list(Some("map"), &["devicePath"]),
        FieldDef::new(
            "startupProbe",
            22,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PROBE)),
            true,
        ),
        FieldDef::new(
            "resizePolicy",
            23,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINERRESIZEPOLICY)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("restartPolicy", 24, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERIMAGE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerImage",
    proto: "k8s.io.api.core.v1.ContainerImage",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("names", 1, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new("sizeBytes", 2, K::Single(E::Scalar(S::Int64)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERPORT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerPort",
    proto: "k8s.io.api.core.v1.ContainerPort",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("hostPort", 2, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("containerPort", 3, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("protocol", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("hostIP", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERRESIZEPOLICY: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerResizePolicy",
    proto: "k8s.io.api.core.v1.ContainerResizePolicy",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("resourceName", 1, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("restartPolicy", 2, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERRESTARTRULE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerRestartRule",
    proto: "k8s.io.api.core.v1.ContainerRestartRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("action", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "exitCodes",
            2,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_CONTAINERRESTARTRULEONEXITCODES,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERRESTARTRULEONEXITCODES: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerRestartRuleOnExitCodes",
    proto: "k8s.io.api.core.v1.ContainerRestartRuleOnExitCodes",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("operator", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("values", 2, K::List(E::Scalar(S::Int32)), true).list(Some("set"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERSTATE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerState",
    proto: "k8s.io.api.core.v1.ContainerState",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "waiting",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONTAINERSTATEWAITING)),
            true,
        ),
        FieldDef::new(
            "running",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONTAINERSTATERUNNING)),
            true,
        ),
        FieldDef::new(
            "terminated",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONTAINERSTATETERMINATED)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERSTATERUNNING: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerStateRunning",
    proto: "k8s.io.api.core.v1.ContainerStateRunning",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "startedAt",
        1,
        K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
        true,
    )
    .zero(Z::Null)],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERSTATETERMINATED: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerStateTerminated",
    proto: "k8s.io.api.core.v1.ContainerStateTerminated",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("exitCode", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("signal", 2, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("reason", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "startedAt",
            5,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "finishedAt",
            6,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("containerID", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERSTATEWAITING: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerStateWaiting",
    proto: "k8s.io.api.core.v1.ContainerStateWaiting",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("reason", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerStatus",
    proto: "k8s.io.api.core.v1.ContainerStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "state",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONTAINERSTATE)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "lastState",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONTAINERSTATE)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new("ready", 4, K::Single(E::Scalar(S::Bool)), false).zero(Z::False),
        FieldDef::new("restartCount", 5, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("image", 6, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("imageID", 7, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("containerID", 8, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("started", 9, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "allocatedResources",
            10,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "resources",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RESOURCEREQUIREMENTS)),
            true,
        ),
        FieldDef::new(
            "volumeMounts",
            12,
            K::List(E::Message(&IO_K8S_API_CORE_V1_VOLUMEMOUNTSTATUS)),
            true,
        )
        .patch(Some("merge"), Some("mountPath"))
        .list(Some("map"), &["mountPath"]),
        FieldDef::new(
            "user",
            13,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONTAINERUSER)),
            true,
        ),
        FieldDef::new(
            "allocatedResourcesStatus",
            14,
            K::List(E::Message(&IO_K8S_API_CORE_V1_RESOURCESTATUS)),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new("stopSignal", 15, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_CONTAINERUSER: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ContainerUser",
    proto: "k8s.io.api.core.v1.ContainerUser",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "linux",
        1,
        K::Single(E::Message(&IO_K8S_API_CORE_V1_LINUXCONTAINERUSER)),
        true,
    )],
};

pub(crate) static IO_K8S_API_CORE_V1_DAEMONENDPOINT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.DaemonEndpoint",
    proto: "k8s.io.api.core.v1.DaemonEndpoint",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("Port", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number)],
};

pub(crate) static IO_K8S_API_CORE_V1_DOWNWARDAPIPROJECTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.DownwardAPIProjection",
    proto: "k8s.io.api.core.v1.DownwardAPIProjection",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "items",
        1,
        K::List(E::Message(&IO_K8S_API_CORE_V1_DOWNWARDAPIVOLUMEFILE)),
        true,
    )
    .list(Some("atomic"), &[])],
};

pub(crate) static IO_K8S_API_CORE_V1_DOWNWARDAPIVOLUMEFILE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.DownwardAPIVolumeFile",
    proto: "k8s.io.api.core.v1.DownwardAPIVolumeFile",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("path", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "fieldRef",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTFIELDSELECTOR)),
            true,
        ),
        FieldDef::new(
            "resourceFieldRef",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RESOURCEFIELDSELECTOR)),
            true,
        ),
        FieldDef::new("mode", 4, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_DOWNWARDAPIVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.DownwardAPIVolumeSource",
    proto: "k8s.io.api.core.v1.DownwardAPIVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "items",
            1,
            K::List(E::Message(&IO_K8S_API_CORE_V1_DOWNWARDAPIVOLUMEFILE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("defaultMode", 2, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_EMPTYDIRVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EmptyDirVolumeSource",
    proto: "k8s.io.api.core.v1.EmptyDirVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("medium", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "sizeLimit",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ENDPOINTADDRESS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EndpointAddress",
    proto: "k8s.io.api.core.v1.EndpointAddress",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[0, 2, 3, 1],
    fields: &[
        FieldDef::new("ip", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "targetRef",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            true,
        ),
        FieldDef::new("hostname", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("nodeName", 4, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ENDPOINTPORT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EndpointPort",
    proto: "k8s.io.api.core.v1.EndpointPort",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("port", 2, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("protocol", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("appProtocol", 4, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ENDPOINTSUBSET: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EndpointSubset",
    proto: "k8s.io.api.core.v1.EndpointSubset",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "addresses",
            1,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ENDPOINTADDRESS)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "notReadyAddresses",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ENDPOINTADDRESS)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "ports",
            3,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ENDPOINTPORT)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ENDPOINTS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Endpoints",
    proto: "k8s.io.api.core.v1.Endpoints",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "Endpoints",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "subsets",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ENDPOINTSUBSET)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ENDPOINTSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EndpointsList",
    proto: "k8s.io.api.core.v1.EndpointsList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "EndpointsList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ENDPOINTS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ENVFROMSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EnvFromSource",
    proto: "k8s.io.api.core.v1.EnvFromSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("prefix", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "configMapRef",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONFIGMAPENVSOURCE)),
            true,
        ),
        FieldDef::new(
            "secretRef",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETENVSOURCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ENVVAR: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EnvVar",
    proto: "k8s.io.api.core.v1.EnvVar",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "valueFrom",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_ENVVARSOURCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ENVVARSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EnvVarSource",
    proto: "k8s.io.api.core.v1.EnvVarSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "fieldRef",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTFIELDSELECTOR)),
            true,
        ),
        FieldDef::new(
            "resourceFieldRef",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RESOURCEFIELDSELECTOR)),
            true,
        ),
        FieldDef::new(
            "configMapKeyRef",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONFIGMAPKEYSELECTOR)),
            true,
        ),
        FieldDef::new(
            "secretKeyRef",
            4,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETKEYSELECTOR)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_EPHEMERALCONTAINER: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EphemeralContainer",
    proto: "k8s.io.api.core.v1.EphemeralContainer",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_EPHEMERALCONTAINERCOMMON)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new(
            "targetContainerName",
            2,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_EPHEMERALCONTAINERCOMMON: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EphemeralContainerCommon",
    proto: "k8s.io.api.core.v1.EphemeralContainerCommon",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[
        2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 0,
        1, 13,
    ],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).zero(Z::String("")),
        FieldDef::new("image", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("command", 3, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("args", 4, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("workingDir", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "ports",
            6,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINERPORT)),
            true,
        )
        .patch(Some("merge"), Some("containerPort"))
        .list(Some("map"), &["containerPort", "protocol"]),
        FieldDef::new(
            "envFrom",
            19,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ENVFROMSOURCE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "env",
            7,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ENVVAR)),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new(
            "resources",
            8,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RESOURCEREQUIREMENTS)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "resizePolicy",
            23,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINERRESIZEPOLICY)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("restartPolicy", 24, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "restartPolicyRules",
            25,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINERRESTARTRULE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "volumeMounts",
            9,
            K::List(E::Message(&IO_K8S_API_CORE_V1_VOLUMEMOUNT)),
            true,
        )
        .patch(Some("merge"), Some("mountPath"))
        .list(Some("map"), &["mountPath"]),
        FieldDef::new(
            "volumeDevices",
            21,
            K::List(E::Message(&IO_K8S_API_CORE_V1_VOLUMEDEVICE)),
            true,
        )
        .patch(Some("merge"), Some("devicePath"))
        .list(Some("map"), &["devicePath"]),
        FieldDef::new(
            "livenessProbe",
            10,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PROBE)),
            true,
        ),
        FieldDef::new(
            "readinessProbe",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PROBE)),
            true,
        ),
        FieldDef::new(
            "startupProbe",
            22,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PROBE)),
            true,
        ),
        FieldDef::new(
            "lifecycle",
            12,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LIFECYCLE)),
            true,
        ),
        FieldDef::new(
            "terminationMessagePath",
            13,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "terminationMessagePolicy",
            20,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("imagePullPolicy", 14, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "securityContext",
            15,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECURITYCONTEXT)),
            true,
        ),
        FieldDef::new("stdin", 16, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("stdinOnce", 17, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("tty", 18, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_EPHEMERALVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EphemeralVolumeSource",
    proto: "k8s.io.api.core.v1.EphemeralVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "volumeClaimTemplate",
        1,
        K::Single(E::Message(
            &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMTEMPLATE,
        )),
        true,
    )],
};

pub(crate) static IO_K8S_API_CORE_V1_EVENT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Event",
    proto: "k8s.io.api.core.v1.Event",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "Event",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "involvedObject",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("reason", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "source",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_EVENTSOURCE)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "firstTimestamp",
            6,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "lastTimestamp",
            7,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("count", 8, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("type", 9, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "eventTime",
            10,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "series",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_EVENTSERIES)),
            true,
        ),
        FieldDef::new("action", 12, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "related",
            13,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            true,
        ),
        FieldDef::new(
            "reportingComponent",
            14,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .zero(Z::String("")),
        FieldDef::new(
            "reportingInstance",
            15,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_EVENTLIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EventList",
    proto: "k8s.io.api.core.v1.EventList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "EventList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_EVENT)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_EVENTSERIES: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EventSeries",
    proto: "k8s.io.api.core.v1.EventSeries",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("count", 1, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new(
            "lastObservedTime",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            true,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_EVENTSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.EventSource",
    proto: "k8s.io.api.core.v1.EventSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("component", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("host", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_EXECACTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ExecAction",
    proto: "k8s.io.api.core.v1.ExecAction",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("command", 1, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_FCVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.FCVolumeSource",
    proto: "k8s.io.api.core.v1.FCVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("targetWWNs", 1, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("lun", 2, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("fsType", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("wwids", 5, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_FLEXPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.FlexPersistentVolumeSource",
    proto: "k8s.io.api.core.v1.FlexPersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
        FieldDef::new("readOnly", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("options", 5, K::Map(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_FLEXVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.FlexVolumeSource",
    proto: "k8s.io.api.core.v1.FlexVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        ),
        FieldDef::new("readOnly", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("options", 5, K::Map(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_FLOCKERVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.FlockerVolumeSource",
    proto: "k8s.io.api.core.v1.FlockerVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("datasetName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("datasetUUID", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_GCEPERSISTENTDISKVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.GCEPersistentDiskVolumeSource",
    proto: "k8s.io.api.core.v1.GCEPersistentDiskVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("pdName", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("partition", 3, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("readOnly", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_GRPCACTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.GRPCAction",
    proto: "k8s.io.api.core.v1.GRPCAction",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("port", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("service", 2, K::Single(E::Scalar(S::String)), true).zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_GITREPOVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.GitRepoVolumeSource",
    proto: "k8s.io.api.core.v1.GitRepoVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("repository", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("revision", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("directory", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_GLUSTERFSPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.GlusterfsPersistentVolumeSource",
    proto: "k8s.io.api.core.v1.GlusterfsPersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("endpoints", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("path", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "endpointsNamespace",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_GLUSTERFSVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.GlusterfsVolumeSource",
    proto: "k8s.io.api.core.v1.GlusterfsVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("endpoints", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("path", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_HTTPGETACTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.HTTPGetAction",
    proto: "k8s.io.api.core.v1.HTTPGetAction",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("path", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "port",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            false,
        )
        .zero(Z::Number),
        FieldDef::new("host", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("scheme", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "httpHeaders",
            5,
            K::List(E::Message(&IO_K8S_API_CORE_V1_HTTPHEADER)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_HTTPHEADER: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.HTTPHeader",
    proto: "k8s.io.api.core.v1.HTTPHeader",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_HOSTALIAS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.HostAlias",
    proto: "k8s.io.api.core.v1.HostAlias",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("ip", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("hostnames", 2, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_HOSTIP: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.HostIP",
    proto: "k8s.io.api.core.v1.HostIP",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("ip", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String(""))],
};

pub(crate) static IO_K8S_API_CORE_V1_HOSTPATHVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.HostPathVolumeSource",
    proto: "k8s.io.api.core.v1.HostPathVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("path", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("type", 2, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ISCSIPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ISCSIPersistentVolumeSource",
    proto: "k8s.io.api.core.v1.ISCSIPersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 10],
    fields: &[
        FieldDef::new("targetPortal", 1, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("iqn", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("lun", 3, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("iscsiInterface", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("fsType", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 6, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("portals", 7, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("chapAuthDiscovery", 8, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            10,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
        FieldDef::new("chapAuthSession", 11, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("initiatorName", 12, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_ISCSIVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ISCSIVolumeSource",
    proto: "k8s.io.api.core.v1.ISCSIVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 10],
    fields: &[
        FieldDef::new("targetPortal", 1, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("iqn", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("lun", 3, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("iscsiInterface", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("fsType", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 6, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("portals", 7, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("chapAuthDiscovery", 8, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            10,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        ),
        FieldDef::new("chapAuthSession", 11, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("initiatorName", 12, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_IMAGEVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ImageVolumeSource",
    proto: "k8s.io.api.core.v1.ImageVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("reference", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("pullPolicy", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_KEYTOPATH: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.KeyToPath",
    proto: "k8s.io.api.core.v1.KeyToPath",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("path", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("mode", 3, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_LIFECYCLE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Lifecycle",
    proto: "k8s.io.api.core.v1.Lifecycle",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "postStart",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LIFECYCLEHANDLER)),
            true,
        ),
        FieldDef::new(
            "preStop",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LIFECYCLEHANDLER)),
            true,
        ),
        FieldDef::new("stopSignal", 3, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_LIFECYCLEHANDLER: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LifecycleHandler",
    proto: "k8s.io.api.core.v1.LifecycleHandler",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "exec",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_EXECACTION)),
            true,
        ),
        FieldDef::new(
            "httpGet",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_HTTPGETACTION)),
            true,
        ),
        FieldDef::new(
            "tcpSocket",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_TCPSOCKETACTION)),
            true,
        ),
        FieldDef::new(
            "sleep",
            4,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SLEEPACTION)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_LIMITRANGE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LimitRange",
    proto: "k8s.io.api.core.v1.LimitRange",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "LimitRange",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LIMITRANGESPEC)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_LIMITRANGEITEM: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LimitRangeItem",
    proto: "k8s.io.api.core.v1.LimitRangeItem",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "max",
            2,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "min",
            3,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "default",
            4,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "defaultRequest",
            5,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "maxLimitRequestRatio",
            6,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_LIMITRANGELIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LimitRangeList",
    proto: "k8s.io.api.core.v1.LimitRangeList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "LimitRangeList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_LIMITRANGE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_LIMITRANGESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LimitRangeSpec",
    proto: "k8s.io.api.core.v1.LimitRangeSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "limits",
        1,
        K::List(E::Message(&IO_K8S_API_CORE_V1_LIMITRANGEITEM)),
        false,
    )
    .list(Some("atomic"), &[])
    .zero(Z::Null)],
};

pub(crate) static IO_K8S_API_CORE_V1_LINUXCONTAINERUSER: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LinuxContainerUser",
    proto: "k8s.io.api.core.v1.LinuxContainerUser",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("uid", 1, K::Single(E::Scalar(S::Int64)), false).zero(Z::Number),
        FieldDef::new("gid", 2, K::Single(E::Scalar(S::Int64)), false).zero(Z::Number),
        FieldDef::new("supplementalGroups", 3, K::List(E::Scalar(S::Int64)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_LOADBALANCERINGRESS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LoadBalancerIngress",
    proto: "k8s.io.api.core.v1.LoadBalancerIngress",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("ip", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("hostname", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("ipMode", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "ports",
            4,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PORTSTATUS)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_LOADBALANCERSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LoadBalancerStatus",
    proto: "k8s.io.api.core.v1.LoadBalancerStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "ingress",
        1,
        K::List(E::Message(&IO_K8S_API_CORE_V1_LOADBALANCERINGRESS)),
        true,
    )
    .list(Some("atomic"), &[])],
};

pub(crate) static IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LocalObjectReference",
    proto: "k8s.io.api.core.v1.LocalObjectReference",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).omits_zero()],
};

pub(crate) static IO_K8S_API_CORE_V1_LOCALVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.LocalVolumeSource",
    proto: "k8s.io.api.core.v1.LocalVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("path", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_MODIFYVOLUMESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ModifyVolumeStatus",
    proto: "k8s.io.api.core.v1.ModifyVolumeStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "targetVolumeAttributesClassName",
            1,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NFSVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NFSVolumeSource",
    proto: "k8s.io.api.core.v1.NFSVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("server", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("path", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NAMESPACE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Namespace",
    proto: "k8s.io.api.core.v1.Namespace",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "Namespace",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NAMESPACESPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NAMESPACESTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NAMESPACECONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NamespaceCondition",
    proto: "k8s.io.api.core.v1.NamespaceCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastTransitionTime",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NAMESPACELIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NamespaceList",
    proto: "k8s.io.api.core.v1.NamespaceList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "NamespaceList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_NAMESPACE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NAMESPACESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NamespaceSpec",
    proto: "k8s.io.api.core.v1.NamespaceSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("finalizers", 1, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NAMESPACESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NamespaceStatus",
    proto: "k8s.io.api.core.v1.NamespaceStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("phase", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "conditions",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_NAMESPACECONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Node",
    proto: "k8s.io.api.core.v1.Node",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "Node",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODEADDRESS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeAddress",
    proto: "k8s.io.api.core.v1.NodeAddress",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("address", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODEAFFINITY: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeAffinity",
    proto: "k8s.io.api.core.v1.NodeAffinity",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "requiredDuringSchedulingIgnoredDuringExecution",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
        FieldDef::new(
            "preferredDuringSchedulingIgnoredDuringExecution",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PREFERREDSCHEDULINGTERM)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODECONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeCondition",
    proto: "k8s.io.api.core.v1.NodeCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastHeartbeatTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "lastTransitionTime",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODECONFIGSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeConfigSource",
    proto: "k8s.io.api.core.v1.NodeConfigSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "configMap",
        2,
        K::Single(E::Message(&IO_K8S_API_CORE_V1_CONFIGMAPNODECONFIGSOURCE)),
        true,
    )],
};

pub(crate) static IO_K8S_API_CORE_V1_NODECONFIGSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeConfigStatus",
    proto: "k8s.io.api.core.v1.NodeConfigStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "assigned",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODECONFIGSOURCE)),
            true,
        ),
        FieldDef::new(
            "active",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODECONFIGSOURCE)),
            true,
        ),
        FieldDef::new(
            "lastKnownGood",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODECONFIGSOURCE)),
            true,
        ),
        FieldDef::new("error", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODEDAEMONENDPOINTS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeDaemonEndpoints",
    proto: "k8s.io.api.core.v1.NodeDaemonEndpoints",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "kubeletEndpoint",
        1,
        K::Single(E::Message(&IO_K8S_API_CORE_V1_DAEMONENDPOINT)),
        true,
    )
    .zero(Z::Object)],
};

pub(crate) static IO_K8S_API_CORE_V1_NODEFEATURES: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeFeatures",
    proto: "k8s.io.api.core.v1.NodeFeatures",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "supplementalGroupsPolicy",
        1,
        K::Single(E::Scalar(S::Bool)),
        true,
    )],
};

pub(crate) static IO_K8S_API_CORE_V1_NODELIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeList",
    proto: "k8s.io.api.core.v1.NodeList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "NodeList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_NODE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODERUNTIMEHANDLER: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeRuntimeHandler",
    proto: "k8s.io.api.core.v1.NodeRuntimeHandler",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).zero(Z::String("")),
        FieldDef::new(
            "features",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODERUNTIMEHANDLERFEATURES)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODERUNTIMEHANDLERFEATURES: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeRuntimeHandlerFeatures",
    proto: "k8s.io.api.core.v1.NodeRuntimeHandlerFeatures",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "recursiveReadOnlyMounts",
            1,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new("userNamespaces", 2, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODESELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeSelector",
    proto: "k8s.io.api.core.v1.NodeSelector",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[FieldDef::new(
        "nodeSelectorTerms",
        1,
        K::List(E::Message(&IO_K8S_API_CORE_V1_NODESELECTORTERM)),
        false,
    )
    .list(Some("atomic"), &[])
    .zero(Z::Null)],
};

pub(crate) static IO_K8S_API_CORE_V1_NODESELECTORREQUIREMENT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeSelectorRequirement",
    proto: "k8s.io.api.core.v1.NodeSelectorRequirement",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("operator", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("values", 3, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODESELECTORTERM: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeSelectorTerm",
    proto: "k8s.io.api.core.v1.NodeSelectorTerm",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new(
            "matchExpressions",
            1,
            K::List(E::Message(&IO_K8S_API_CORE_V1_NODESELECTORREQUIREMENT)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "matchFields",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_NODESELECTORREQUIREMENT)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeSpec",
    proto: "k8s.io.api.core.v1.NodeSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 6, 2, 3, 4, 5, 1],
    fields: &[
        FieldDef::new("podCIDR", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("externalID", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("providerID", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("unschedulable", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "taints",
            5,
            K::List(E::Message(&IO_K8S_API_CORE_V1_TAINT)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "configSource",
            6,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODECONFIGSOURCE)),
            true,
        ),
        FieldDef::new("podCIDRs", 7, K::List(E::Scalar(S::String)), true)
            .patch(Some("merge"), None)
            .list(Some("set"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeStatus",
    proto: "k8s.io.api.core.v1.NodeStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "capacity",
            1,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "allocatable",
            2,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new("phase", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "conditions",
            4,
            K::List(E::Message(&IO_K8S_API_CORE_V1_NODECONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
        FieldDef::new(
            "addresses",
            5,
            K::List(E::Message(&IO_K8S_API_CORE_V1_NODEADDRESS)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
        FieldDef::new(
            "daemonEndpoints",
            6,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODEDAEMONENDPOINTS)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "nodeInfo",
            7,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESYSTEMINFO)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "images",
            8,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINERIMAGE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("volumesInUse", 9, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new(
            "volumesAttached",
            10,
            K::List(E::Message(&IO_K8S_API_CORE_V1_ATTACHEDVOLUME)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "config",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODECONFIGSTATUS)),
            true,
        ),
        FieldDef::new(
            "runtimeHandlers",
            12,
            K::List(E::Message(&IO_K8S_API_CORE_V1_NODERUNTIMEHANDLER)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "features",
            13,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODEFEATURES)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_NODESWAPSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeSwapStatus",
    proto: "k8s.io.api.core.v1.NodeSwapStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "capacity",
        1,
        K::Single(E::Scalar(S::Int64)),
        true,
    )],
};

pub(crate) static IO_K8S_API_CORE_V1_NODESYSTEMINFO: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.NodeSystemInfo",
    proto: "k8s.io.api.core.v1.NodeSystemInfo",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("machineID", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("systemUUID", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("bootID", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("kernelVersion", 4, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("osImage", 5, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "containerRuntimeVersion",
            6,
            K::Single(E::Scalar(S::String)),
            false,
        )
        .zero(Z::String("")),
        FieldDef::new("kubeletVersion", 7, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new(
            "kubeProxyVersion",
            8,
            K::Single(E::Scalar(S::String)),
            false,
        )
        .zero(Z::String("")),
        FieldDef::new("operatingSystem", 9, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("architecture", 10, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new(
            "swap",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESWAPSTATUS)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_OBJECTFIELDSELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ObjectFieldSelector",
    proto: "k8s.io.api.core.v1.ObjectFieldSelector",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("apiVersion", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("fieldPath", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_OBJECTREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ObjectReference",
    proto: "k8s.io.api.core.v1.ObjectReference",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("kind", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("namespace", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("name", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("uid", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("apiVersion", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resourceVersion", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("fieldPath", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUME: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolume",
    proto: "k8s.io.api.core.v1.PersistentVolume",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "PersistentVolume",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUMESPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUMESTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIM: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeClaim",
    proto: "k8s.io.api.core.v1.PersistentVolumeClaim",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "PersistentVolumeClaim",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeClaimCondition",
    proto: "k8s.io.api.core.v1.PersistentVolumeClaimCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastProbeTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "lastTransitionTime",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMLIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeClaimList",
    proto: "k8s.io.api.core.v1.PersistentVolumeClaimList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "PersistentVolumeClaimList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIM)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeClaimSpec",
    proto: "k8s.io.api.core.v1.PersistentVolumeClaimSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 3, 1, 2, 4, 5, 6, 7, 8],
    fields: &[
        FieldDef::new("accessModes", 1, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new(
            "resources",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_VOLUMERESOURCEREQUIREMENTS)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new("volumeName", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "selector",
            4,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new("storageClassName", 5, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("volumeMode", 6, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "dataSource",
            7,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_TYPEDLOCALOBJECTREFERENCE)),
            true,
        ),
        FieldDef::new(
            "dataSourceRef",
            8,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_TYPEDOBJECTREFERENCE)),
            true,
        ),
        FieldDef::new(
            "volumeAttributesClassName",
            9,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeClaimStatus",
    proto: "k8s.io.api.core.v1.PersistentVolumeClaimStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("phase", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("accessModes", 2, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new(
            "capacity",
            3,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "conditions",
            4,
            K::List(E::Message(
                &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMCONDITION,
            )),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
        FieldDef::new(
            "allocatedResources",
            5,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "allocatedResourceStatuses",
            7,
            K::Map(E::Scalar(S::String)),
            true,
        )
        .map_type("granular"),
        FieldDef::new(
            "currentVolumeAttributesClassName",
            8,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "modifyVolumeStatus",
            9,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_MODIFYVOLUMESTATUS)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMTEMPLATE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeClaimTemplate",
    proto: "k8s.io.api.core.v1.PersistentVolumeClaimTemplate",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMSPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource",
    proto: "k8s.io.api.core.v1.PersistentVolumeClaimVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("claimName", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 2, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMELIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeList",
    proto: "k8s.io.api.core.v1.PersistentVolumeList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "PersistentVolumeList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUME)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeSource",
    proto: "k8s.io.api.core.v1.PersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[
        2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1,
    ],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "gcePersistentDisk",
            1,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_GCEPERSISTENTDISKVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "awsElasticBlockStore",
            2,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_AWSELASTICBLOCKSTOREVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "hostPath",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_HOSTPATHVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "glusterfs",
            4,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_GLUSTERFSPERSISTENTVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "nfs",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NFSVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "rbd",
            6,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RBDPERSISTENTVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "iscsi",
            7,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_ISCSIPERSISTENTVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "cinder",
            8,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CINDERPERSISTENTVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "cephfs",
            9,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CEPHFSPERSISTENTVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "fc",
            10,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_FCVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "flocker",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_FLOCKERVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "flexVolume",
            12,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_FLEXPERSISTENTVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "azureFile",
            13,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_AZUREFILEPERSISTENTVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "vsphereVolume",
            14,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_VSPHEREVIRTUALDISKVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "quobyte",
            15,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_QUOBYTEVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "azureDisk",
            16,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_AZUREDISKVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "photonPersistentDisk",
            17,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_PHOTONPERSISTENTDISKVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "portworxVolume",
            18,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PORTWORXVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "scaleIO",
            19,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_SCALEIOPERSISTENTVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "local",
            20,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "storageos",
            21,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_STORAGEOSPERSISTENTVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "csi",
            22,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CSIPERSISTENTVOLUMESOURCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeSpec",
    proto: "k8s.io.api.core.v1.PersistentVolumeSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "capacity",
            1,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUMESOURCE)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new("accessModes", 3, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new(
            "claimRef",
            4,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            true,
        )
        .map_type("granular"),
        FieldDef::new(
            "persistentVolumeReclaimPolicy",
            5,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("storageClassName", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("mountOptions", 7, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("volumeMode", 8, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "nodeAffinity",
            9,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_VOLUMENODEAFFINITY)),
            true,
        ),
        FieldDef::new(
            "volumeAttributesClassName",
            10,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PERSISTENTVOLUMESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PersistentVolumeStatus",
    proto: "k8s.io.api.core.v1.PersistentVolumeStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("phase", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("reason", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "lastPhaseTransitionTime",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PHOTONPERSISTENTDISKVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource",
    proto: "k8s.io.api.core.v1.PhotonPersistentDiskVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("pdID", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_POD: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Pod",
    proto: "k8s.io.api.core.v1.Pod",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "Pod",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODAFFINITY: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodAffinity",
    proto: "k8s.io.api.core.v1.PodAffinity",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "requiredDuringSchedulingIgnoredDuringExecution",
            1,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODAFFINITYTERM)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "preferredDuringSchedulingIgnoredDuringExecution",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_WEIGHTEDPODAFFINITYTERM)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODAFFINITYTERM: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodAffinityTerm",
    proto: "k8s.io.api.core.v1.PodAffinityTerm",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "labelSelector",
            1,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new("namespaces", 2, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("topologyKey", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "namespaceSelector",
            4,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new("matchLabelKeys", 5, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("mismatchLabelKeys", 6, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODANTIAFFINITY: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodAntiAffinity",
    proto: "k8s.io.api.core.v1.PodAntiAffinity",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "requiredDuringSchedulingIgnoredDuringExecution",
            1,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODAFFINITYTERM)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "preferredDuringSchedulingIgnoredDuringExecution",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_WEIGHTEDPODAFFINITYTERM)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodCondition",
    proto: "k8s.io.api.core.v1.PodCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 6, 1, 2, 3, 4, 5],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastProbeTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "lastTransitionTime",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "observedGeneration",
            7,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODDNSCONFIG: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodDNSConfig",
    proto: "k8s.io.api.core.v1.PodDNSConfig",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("nameservers", 1, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("searches", 2, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new(
            "options",
            3,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODDNSCONFIGOPTION)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODDNSCONFIGOPTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodDNSConfigOption",
    proto: "k8s.io.api.core.v1.PodDNSConfigOption",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODIP: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodIP",
    proto: "k8s.io.api.core.v1.PodIP",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("ip", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String(""))],
};

pub(crate) static IO_K8S_API_CORE_V1_PODLIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodList",
    proto: "k8s.io.api.core.v1.PodList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "PodList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_POD)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODOS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodOS",
    proto: "k8s.io.api.core.v1.PodOS",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String(""))],
};

pub(crate) static IO_K8S_API_CORE_V1_PODREADINESSGATE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodReadinessGate",
    proto: "k8s.io.api.core.v1.PodReadinessGate",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("conditionType", 1, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODRESOURCECLAIM: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodResourceClaim",
    proto: "k8s.io.api.core.v1.PodResourceClaim",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "resourceClaimName",
            3,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "resourceClaimTemplateName",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODRESOURCECLAIMSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodResourceClaimStatus",
    proto: "k8s.io.api.core.v1.PodResourceClaimStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "resourceClaimName",
            2,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODSCHEDULINGGATE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodSchedulingGate",
    proto: "k8s.io.api.core.v1.PodSchedulingGate",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String(""))],
};

pub(crate) static IO_K8S_API_CORE_V1_PODSECURITYCONTEXT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodSecurityContext",
    proto: "k8s.io.api.core.v1.PodSecurityContext",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 7, 1, 5, 2, 3, 11, 4, 6, 8, 9, 10, 12],
    fields: &[
        FieldDef::new(
            "seLinuxOptions",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SELINUXOPTIONS)),
            true,
        ),
        FieldDef::new("runAsUser", 2, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("runAsNonRoot", 3, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("supplementalGroups", 4, K::List(E::Scalar(S::Int64)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("fsGroup", 5, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("runAsGroup", 6, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new(
            "sysctls",
            7,
            K::List(E::Message(&IO_K8S_API_CORE_V1_SYSCTL)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "windowsOptions",
            8,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_WINDOWSSECURITYCONTEXTOPTIONS,
            )),
            true,
        ),
        FieldDef::new(
            "fsGroupChangePolicy",
            9,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "seccompProfile",
            10,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECCOMPPROFILE)),
            true,
        ),
        FieldDef::new(
            "appArmorProfile",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_APPARMORPROFILE)),
            true,
        ),
        FieldDef::new(
            "supplementalGroupsPolicy",
            12,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "seLinuxChangePolicy",
            13,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodSpec",
    proto: "k8s.io.api.core.v1.PodSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[
        0, 19, 1, 33, 2, 3, 4, 5, 6, 7, 8, 20, 9, 10, 11, 12, 26, 13, 14, 15, 16, 17, 18, 21, 22,
        23, 24, 25, 27, 28, 29, 30, 31, 32, 34, 35, 36, 37, 38, 39,
    ],
    fields: &[
        FieldDef::new(
            "volumes",
            1,
            K::List(E::Message(&IO_K8S_API_CORE_V1_VOLUME)),
            true,
        )
        .patch(Some("merge,retainKeys"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new(
            "containers",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINER)),
            false,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"])
        .zero(Z::Null),
        FieldDef::new("restartPolicy", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "terminationGracePeriodSeconds",
            4,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
        FieldDef::new(
            "activeDeadlineSeconds",
            5,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
        FieldDef::new("dnsPolicy", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("nodeSelector", 7, K::Map(E::Scalar(S::String)), true).map_type("atomic"),
        FieldDef::new(
            "serviceAccountName",
            8,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("serviceAccount", 9, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("nodeName", 10, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("hostNetwork", 11, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("hostPID", 12, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("hostIPC", 13, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "securityContext",
            14,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODSECURITYCONTEXT)),
            true,
        ),
        FieldDef::new(
            "imagePullSecrets",
            15,
            K::List(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new("hostname", 16, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("subdomain", 17, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "affinity",
            18,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_AFFINITY)),
            true,
        ),
        FieldDef::new("schedulerName", 19, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "initContainers",
            20,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINER)),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new(
            "automountServiceAccountToken",
            21,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new(
            "tolerations",
            22,
            K::List(E::Message(&IO_K8S_API_CORE_V1_TOLERATION)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "hostAliases",
            23,
            K::List(E::Message(&IO_K8S_API_CORE_V1_HOSTALIAS)),
            true,
        )
        .patch(Some("merge"), Some("ip"))
        .list(Some("map"), &["ip"]),
        FieldDef::new(
            "priorityClassName",
            24,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("priority", 25, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "dnsConfig",
            26,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODDNSCONFIG)),
            true,
        ),
        FieldDef::new(
            "shareProcessNamespace",
            27,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new(
            "readinessGates",
            28,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODREADINESSGATE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "runtimeClassName",
            29,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "enableServiceLinks",
            30,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new(
            "preemptionPolicy",
            31,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "overhead",
            32,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "topologySpreadConstraints",
            33,
            K::List(E::Message(&IO_K8S_API_CORE_V1_TOPOLOGYSPREADCONSTRAINT)),
            true,
        )
        .patch(Some("merge"), Some("topologyKey"))
        .list(Some("map"), &["topologyKey", "whenUnsatisfiable"]),
        FieldDef::new(
            "ephemeralContainers",
            34,
            K::List(E::Message(&IO_K8S_API_CORE_V1_EPHEMERALCONTAINER)),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new("setHostnameAsFQDN", 35, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "os",
            36,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODOS)),
            true,
        ),
        FieldDef::new("hostUsers", 37, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "schedulingGates",
            38,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODSCHEDULINGGATE)),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new(
            "resourceClaims",
            39,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODRESOURCECLAIM)),
            true,
        )
        .patch(Some("merge,retainKeys"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new(
            "resources",
            40,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RESOURCEREQUIREMENTS)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodStatus",
    proto: "k8s.io.api.core.v1.PodStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[16, 0, 1, 2, 3, 10, 4, 15, 5, 11, 6, 9, 7, 8, 12, 13, 14],
    fields: &[
        FieldDef::new("phase", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "conditions",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODCONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
        FieldDef::new("message", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("hostIP", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("podIP", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "startTime",
            7,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
        FieldDef::new(
            "containerStatuses",
            8,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINERSTATUS)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("qosClass", 9, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "initContainerStatuses",
            10,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINERSTATUS)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "nominatedNodeName",
            11,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "podIPs",
            12,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODIP)),
            true,
        )
        .patch(Some("merge"), Some("ip"))
        .list(Some("map"), &["ip"]),
        FieldDef::new(
            "ephemeralContainerStatuses",
            13,
            K::List(E::Message(&IO_K8S_API_CORE_V1_CONTAINERSTATUS)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("resize", 14, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "resourceClaimStatuses",
            15,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODRESOURCECLAIMSTATUS)),
            true,
        )
        .patch(Some("merge,retainKeys"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new(
            "hostIPs",
            16,
            K::List(E::Message(&IO_K8S_API_CORE_V1_HOSTIP)),
            true,
        )
        .patch(Some("merge"), Some("ip"))
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "observedGeneration",
            17,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODTEMPLATE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodTemplate",
    proto: "k8s.io.api.core.v1.PodTemplate",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "PodTemplate",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "template",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODTEMPLATESPEC)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODTEMPLATELIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodTemplateList",
    proto: "k8s.io.api.core.v1.PodTemplateList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "PodTemplateList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_PODTEMPLATE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PODTEMPLATESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PodTemplateSpec",
    proto: "k8s.io.api.core.v1.PodTemplateSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODSPEC)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PORTSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PortStatus",
    proto: "k8s.io.api.core.v1.PortStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("port", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("protocol", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("error", 3, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PORTWORXVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PortworxVolumeSource",
    proto: "k8s.io.api.core.v1.PortworxVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("volumeID", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PREFERREDSCHEDULINGTERM: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.PreferredSchedulingTerm",
    proto: "k8s.io.api.core.v1.PreferredSchedulingTerm",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("weight", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "preference",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTORTERM)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PROBE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Probe",
    proto: "k8s.io.api.core.v1.Probe",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PROBEHANDLER)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new(
            "initialDelaySeconds",
            2,
            K::Single(E::Scalar(S::Int32)),
            true,
        )
        .omits_zero(),
        FieldDef::new("timeoutSeconds", 3, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("periodSeconds", 4, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("successThreshold", 5, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("failureThreshold", 6, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new(
            "terminationGracePeriodSeconds",
            7,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PROBEHANDLER: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ProbeHandler",
    proto: "k8s.io.api.core.v1.ProbeHandler",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 3, 4, 5, 0, 1],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "exec",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_EXECACTION)),
            true,
        ),
        FieldDef::new(
            "httpGet",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_HTTPGETACTION)),
            true,
        ),
        FieldDef::new(
            "tcpSocket",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_TCPSOCKETACTION)),
            true,
        ),
        FieldDef::new(
            "grpc",
            4,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_GRPCACTION)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_PROJECTEDVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ProjectedVolumeSource",
    proto: "k8s.io.api.core.v1.ProjectedVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "sources",
            1,
            K::List(E::Message(&IO_K8S_API_CORE_V1_VOLUMEPROJECTION)),
            true,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new("defaultMode", 2, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_QUOBYTEVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.QuobyteVolumeSource",
    proto: "k8s.io.api.core.v1.QuobyteVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("registry", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("volume", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("user", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("group", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("tenant", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RBDPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.RBDPersistentVolumeSource",
    proto: "k8s.io.api.core.v1.RBDPersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("monitors", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new("image", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("pool", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("user", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("keyring", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            7,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            true,
        ),
        FieldDef::new("readOnly", 8, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RBDVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.RBDVolumeSource",
    proto: "k8s.io.api.core.v1.RBDVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("monitors", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new("image", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("pool", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("user", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("keyring", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            7,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        ),
        FieldDef::new("readOnly", 8, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_REPLICATIONCONTROLLER: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ReplicationController",
    proto: "k8s.io.api.core.v1.ReplicationController",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ReplicationController",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ReplicationControllerCondition",
    proto: "k8s.io.api.core.v1.ReplicationControllerCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "lastTransitionTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERLIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ReplicationControllerList",
    proto: "k8s.io.api.core.v1.ReplicationControllerList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ReplicationControllerList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_REPLICATIONCONTROLLER)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ReplicationControllerSpec",
    proto: "k8s.io.api.core.v1.ReplicationControllerSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 3, 1, 2],
    fields: &[
        FieldDef::new("replicas", 1, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("selector", 2, K::Map(E::Scalar(S::String)), true).map_type("atomic"),
        FieldDef::new(
            "template",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODTEMPLATESPEC)),
            true,
        ),
        FieldDef::new("minReadySeconds", 4, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ReplicationControllerStatus",
    proto: "k8s.io.api.core.v1.ReplicationControllerStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 3, 4, 2, 5],
    fields: &[
        FieldDef::new("replicas", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "fullyLabeledReplicas",
            2,
            K::Single(E::Scalar(S::Int32)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "observedGeneration",
            3,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
        FieldDef::new("readyReplicas", 4, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("availableReplicas", 5, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new(
            "conditions",
            6,
            K::List(E::Message(
                &IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERCONDITION,
            )),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RESOURCECLAIM: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ResourceClaim",
    proto: "k8s.io.api.core.v1.ResourceClaim",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("request", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RESOURCEFIELDSELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ResourceFieldSelector",
    proto: "k8s.io.api.core.v1.ResourceFieldSelector",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("containerName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resource", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "divisor",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        )
        .zero(Z::String("0")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RESOURCEHEALTH: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ResourceHealth",
    proto: "k8s.io.api.core.v1.ResourceHealth",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("resourceID", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("health", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RESOURCEQUOTA: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ResourceQuota",
    proto: "k8s.io.api.core.v1.ResourceQuota",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ResourceQuota",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RESOURCEQUOTASPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RESOURCEQUOTASTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RESOURCEQUOTALIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ResourceQuotaList",
    proto: "k8s.io.api.core.v1.ResourceQuotaList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ResourceQuotaList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_RESOURCEQUOTA)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RESOURCEQUOTASPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ResourceQuotaSpec",
    proto: "k8s.io.api.core.v1.ResourceQuotaSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "hard",
            1,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new("scopes", 2, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new(
            "scopeSelector",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SCOPESELECTOR)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RESOURCEQUOTASTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ResourceQuotaStatus",
    proto: "k8s.io.api.core.v1.ResourceQuotaStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "hard",
            1,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "used",
            2,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RESOURCEREQUIREMENTS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ResourceRequirements",
    proto: "k8s.io.api.core.v1.ResourceRequirements",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "limits",
            1,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "requests",
            2,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "claims",
            3,
            K::List(E::Message(&IO_K8S_API_CORE_V1_RESOURCECLAIM)),
            true,
        )
        .list(Some("map"), &["name"]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_RESOURCESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ResourceStatus",
    proto: "k8s.io.api.core.v1.ResourceStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "resources",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_RESOURCEHEALTH)),
            true,
        )
        .list(Some("map"), &["resourceID"]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SELINUXOPTIONS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SELinuxOptions",
    proto: "k8s.io.api.core.v1.SELinuxOptions",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("user", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("role", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("type", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("level", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SCALEIOPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ScaleIOPersistentVolumeSource",
    proto: "k8s.io.api.core.v1.ScaleIOPersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("gateway", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("system", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "secretRef",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETREFERENCE)),
            false,
        )
        .zero(Z::Null),
        FieldDef::new("sslEnabled", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("protectionDomain", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("storagePool", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("storageMode", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("volumeName", 8, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("fsType", 9, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 10, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SCALEIOVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ScaleIOVolumeSource",
    proto: "k8s.io.api.core.v1.ScaleIOVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("gateway", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("system", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "secretRef",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            false,
        )
        .zero(Z::Null),
        FieldDef::new("sslEnabled", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("protectionDomain", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("storagePool", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("storageMode", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("volumeName", 8, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("fsType", 9, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 10, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SCOPESELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ScopeSelector",
    proto: "k8s.io.api.core.v1.ScopeSelector",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[FieldDef::new(
        "matchExpressions",
        1,
        K::List(E::Message(
            &IO_K8S_API_CORE_V1_SCOPEDRESOURCESELECTORREQUIREMENT,
        )),
        true,
    )
    .list(Some("atomic"), &[])],
};

pub(crate) static IO_K8S_API_CORE_V1_SCOPEDRESOURCESELECTORREQUIREMENT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ScopedResourceSelectorRequirement",
    proto: "k8s.io.api.core.v1.ScopedResourceSelectorRequirement",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("scopeName", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("operator", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("values", 3, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SECCOMPPROFILE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SeccompProfile",
    proto: "k8s.io.api.core.v1.SeccompProfile",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("localhostProfile", 2, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SECRET: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Secret",
    proto: "k8s.io.api.core.v1.Secret",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "Secret",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 6, 3, 5, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("data", 2, K::Map(E::Scalar(S::Bytes)), true),
        FieldDef::new("type", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("stringData", 4, K::Map(E::Scalar(S::String)), true),
        FieldDef::new("immutable", 5, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SECRETENVSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SecretEnvSource",
    proto: "k8s.io.api.core.v1.SecretEnvSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new("optional", 2, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SECRETKEYSELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SecretKeySelector",
    proto: "k8s.io.api.core.v1.SecretKeySelector",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new(
            "",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new("key", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("optional", 3, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SECRETLIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SecretList",
    proto: "k8s.io.api.core.v1.SecretList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "SecretList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_SECRET)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SECRETPROJECTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SecretProjection",
    proto: "k8s.io.api.core.v1.SecretProjection",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        )
        .inline()
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_KEYTOPATH)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("optional", 4, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SECRETREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SecretReference",
    proto: "k8s.io.api.core.v1.SecretReference",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("namespace", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SECRETVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SecretVolumeSource",
    proto: "k8s.io.api.core.v1.SecretVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("secretName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_KEYTOPATH)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("defaultMode", 3, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("optional", 4, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SECURITYCONTEXT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SecurityContext",
    proto: "k8s.io.api.core.v1.SecurityContext",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 9, 3, 7, 4, 5, 6, 8, 10, 11],
    fields: &[
        FieldDef::new(
            "capabilities",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CAPABILITIES)),
            true,
        ),
        FieldDef::new("privileged", 2, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "seLinuxOptions",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SELINUXOPTIONS)),
            true,
        ),
        FieldDef::new("runAsUser", 4, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("runAsNonRoot", 5, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "readOnlyRootFilesystem",
            6,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new(
            "allowPrivilegeEscalation",
            7,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new("runAsGroup", 8, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("procMount", 9, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "windowsOptions",
            10,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_WINDOWSSECURITYCONTEXTOPTIONS,
            )),
            true,
        ),
        FieldDef::new(
            "seccompProfile",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECCOMPPROFILE)),
            true,
        ),
        FieldDef::new(
            "appArmorProfile",
            12,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_APPARMORPROFILE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SERVICE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Service",
    proto: "k8s.io.api.core.v1.Service",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "Service",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SERVICESPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SERVICESTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SERVICEACCOUNT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ServiceAccount",
    proto: "k8s.io.api.core.v1.ServiceAccount",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ServiceAccount",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "secrets",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            true,
        )
        .patch(Some("merge"), Some("name"))
        .list(Some("map"), &["name"]),
        FieldDef::new(
            "imagePullSecrets",
            3,
            K::List(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "automountServiceAccountToken",
            4,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SERVICEACCOUNTLIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ServiceAccountList",
    proto: "k8s.io.api.core.v1.ServiceAccountList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ServiceAccountList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_SERVICEACCOUNT)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SERVICEACCOUNTTOKENPROJECTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ServiceAccountTokenProjection",
    proto: "k8s.io.api.core.v1.ServiceAccountTokenProjection",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("audience", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("expirationSeconds", 2, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("path", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SERVICELIST: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ServiceList",
    proto: "k8s.io.api.core.v1.ServiceList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "ServiceList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_SERVICE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SERVICEPORT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ServicePort",
    proto: "k8s.io.api.core.v1.ServicePort",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 5, 2, 3, 4],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("protocol", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("port", 3, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "targetPort",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            true,
        )
        .zero(Z::Number),
        FieldDef::new("nodePort", 5, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("appProtocol", 6, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SERVICESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ServiceSpec",
    proto: "k8s.io.api.core.v1.ServiceSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[
        0, 1, 2, 14, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 13, 16, 17, 18, 19,
    ],
    fields: &[
        FieldDef::new(
            "ports",
            1,
            K::List(E::Message(&IO_K8S_API_CORE_V1_SERVICEPORT)),
            true,
        )
        .patch(Some("merge"), Some("port"))
        .list(Some("map"), &["port", "protocol"]),
        FieldDef::new("selector", 2, K::Map(E::Scalar(S::String)), true).map_type("atomic"),
        FieldDef::new("clusterIP", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("type", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("externalIPs", 5, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("sessionAffinity", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("loadBalancerIP", 8, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "loadBalancerSourceRanges",
            9,
            K::List(E::Scalar(S::String)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("externalName", 10, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "externalTrafficPolicy",
            11,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "healthCheckNodePort",
            12,
            K::Single(E::Scalar(S::Int32)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "publishNotReadyAddresses",
            13,
            K::Single(E::Scalar(S::Bool)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "sessionAffinityConfig",
            14,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SESSIONAFFINITYCONFIG)),
            true,
        ),
        FieldDef::new("ipFamilyPolicy", 17, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("clusterIPs", 18, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("ipFamilies", 19, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new(
            "allocateLoadBalancerNodePorts",
            20,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new(
            "loadBalancerClass",
            21,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "internalTrafficPolicy",
            22,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "trafficDistribution",
            23,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SERVICESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.ServiceStatus",
    proto: "k8s.io.api.core.v1.ServiceStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "loadBalancer",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOADBALANCERSTATUS)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "conditions",
            2,
            K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SESSIONAFFINITYCONFIG: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SessionAffinityConfig",
    proto: "k8s.io.api.core.v1.SessionAffinityConfig",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "clientIP",
        1,
        K::Single(E::Message(&IO_K8S_API_CORE_V1_CLIENTIPCONFIG)),
        true,
    )],
};

pub(crate) static IO_K8S_API_CORE_V1_SLEEPACTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.SleepAction",
    proto: "k8s.io.api.core.v1.SleepAction",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("seconds", 1, K::Single(E::Scalar(S::Int64)), false).zero(Z::Number)],
};

pub(crate) static IO_K8S_API_CORE_V1_STORAGEOSPERSISTENTVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.StorageOSPersistentVolumeSource",
    proto: "k8s.io.api.core.v1.StorageOSPersistentVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("volumeName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("volumeNamespace", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("fsType", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_STORAGEOSVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.StorageOSVolumeSource",
    proto: "k8s.io.api.core.v1.StorageOSVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("volumeName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("volumeNamespace", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("fsType", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("readOnly", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "secretRef",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_SYSCTL: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Sysctl",
    proto: "k8s.io.api.core.v1.Sysctl",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_TCPSOCKETACTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.TCPSocketAction",
    proto: "k8s.io.api.core.v1.TCPSocketAction",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "port",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            false,
        )
        .zero(Z::Number),
        FieldDef::new("host", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_TAINT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Taint",
    proto: "k8s.io.api.core.v1.Taint",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("effect", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "timeAdded",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_TOLERATION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Toleration",
    proto: "k8s.io.api.core.v1.Toleration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("operator", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("value", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("effect", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("tolerationSeconds", 5, K::Single(E::Scalar(S::Int64)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_TOPOLOGYSELECTORLABELREQUIREMENT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.TopologySelectorLabelRequirement",
    proto: "k8s.io.api.core.v1.TopologySelectorLabelRequirement",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("values", 2, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_TOPOLOGYSELECTORTERM: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.TopologySelectorTerm",
    proto: "k8s.io.api.core.v1.TopologySelectorTerm",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[FieldDef::new(
        "matchLabelExpressions",
        1,
        K::List(E::Message(
            &IO_K8S_API_CORE_V1_TOPOLOGYSELECTORLABELREQUIREMENT,
        )),
        true,
    )
    .list(Some("atomic"), &[])],
};

pub(crate) static IO_K8S_API_CORE_V1_TOPOLOGYSPREADCONSTRAINT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.TopologySpreadConstraint",
    proto: "k8s.io.api.core.v1.TopologySpreadConstraint",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("maxSkew", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("topologyKey", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "whenUnsatisfiable",
            3,
            K::Single(E::Scalar(S::String)),
            false,
        )
        .zero(Z::String("")),
        FieldDef::new(
            "labelSelector",
            4,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new("minDomains", 5, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "nodeAffinityPolicy",
            6,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new("nodeTaintsPolicy", 7, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("matchLabelKeys", 8, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_TYPEDLOCALOBJECTREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.TypedLocalObjectReference",
    proto: "k8s.io.api.core.v1.TypedLocalObjectReference",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("apiGroup", 1, K::Single(E::Scalar(S::String)), true).zero(Z::Null),
        FieldDef::new("kind", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_TYPEDOBJECTREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.TypedObjectReference",
    proto: "k8s.io.api.core.v1.TypedObjectReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("apiGroup", 1, K::Single(E::Scalar(S::String)), true).zero(Z::Null),
        FieldDef::new("kind", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("namespace", 4, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_VOLUME: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.Volume",
    proto: "k8s.io.api.core.v1.Volume",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_VOLUMESOURCE)),
            true,
        )
        .inline()
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_VOLUMEDEVICE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.VolumeDevice",
    proto: "k8s.io.api.core.v1.VolumeDevice",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("devicePath", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_VOLUMEMOUNT: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.VolumeMount",
    proto: "k8s.io.api.core.v1.VolumeMount",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 6, 2, 3, 4, 5],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 2, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("mountPath", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("subPath", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("mountPropagation", 5, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("subPathExpr", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "recursiveReadOnly",
            7,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_VOLUMEMOUNTSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.VolumeMountStatus",
    proto: "k8s.io.api.core.v1.VolumeMountStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("mountPath", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("readOnly", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "recursiveReadOnly",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_VOLUMENODEAFFINITY: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.VolumeNodeAffinity",
    proto: "k8s.io.api.core.v1.VolumeNodeAffinity",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "required",
        1,
        K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
        true,
    )],
};

pub(crate) static IO_K8S_API_CORE_V1_VOLUMEPROJECTION: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.VolumeProjection",
    proto: "k8s.io.api.core.v1.VolumeProjection",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "secret",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETPROJECTION)),
            true,
        ),
        FieldDef::new(
            "downwardAPI",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_DOWNWARDAPIPROJECTION)),
            true,
        ),
        FieldDef::new(
            "configMap",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONFIGMAPPROJECTION)),
            true,
        ),
        FieldDef::new(
            "serviceAccountToken",
            4,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_SERVICEACCOUNTTOKENPROJECTION,
            )),
            true,
        ),
        FieldDef::new(
            "clusterTrustBundle",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CLUSTERTRUSTBUNDLEPROJECTION)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_VOLUMERESOURCEREQUIREMENTS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.VolumeResourceRequirements",
    proto: "k8s.io.api.core.v1.VolumeResourceRequirements",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "limits",
            1,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "requests",
            2,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_VOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.VolumeSource",
    proto: "k8s.io.api.core.v1.VolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[
        2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
        27, 28, 29, 30, 31, 0, 1,
    ],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "hostPath",
            1,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_HOSTPATHVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "emptyDir",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_EMPTYDIRVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "gcePersistentDisk",
            3,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_GCEPERSISTENTDISKVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "awsElasticBlockStore",
            4,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_AWSELASTICBLOCKSTOREVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "gitRepo",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_GITREPOVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "secret",
            6,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SECRETVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "nfs",
            7,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NFSVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "iscsi",
            8,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_ISCSIVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "glusterfs",
            9,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_GLUSTERFSVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "persistentVolumeClaim",
            10,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "rbd",
            11,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_RBDVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "flexVolume",
            12,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_FLEXVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "cinder",
            13,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CINDERVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "cephfs",
            14,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CEPHFSVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "flocker",
            15,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_FLOCKERVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "downwardAPI",
            16,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_DOWNWARDAPIVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "fc",
            17,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_FCVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "azureFile",
            18,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_AZUREFILEVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "configMap",
            19,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CONFIGMAPVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "vsphereVolume",
            20,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_VSPHEREVIRTUALDISKVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "quobyte",
            21,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_QUOBYTEVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "azureDisk",
            22,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_AZUREDISKVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "photonPersistentDisk",
            23,
            K::Single(E::Message(
                &IO_K8S_API_CORE_V1_PHOTONPERSISTENTDISKVOLUMESOURCE,
            )),
            true,
        ),
        FieldDef::new(
            "projected",
            26,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PROJECTEDVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "portworxVolume",
            24,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PORTWORXVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "scaleIO",
            25,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_SCALEIOVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "storageos",
            27,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_STORAGEOSVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "csi",
            28,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_CSIVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "ephemeral",
            29,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_EPHEMERALVOLUMESOURCE)),
            true,
        ),
        FieldDef::new(
            "image",
            30,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_IMAGEVOLUMESOURCE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_VSPHEREVIRTUALDISKVOLUMESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource",
    proto: "k8s.io.api.core.v1.VsphereVirtualDiskVolumeSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("volumePath", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("fsType", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "storagePolicyName",
            3,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("storagePolicyID", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_WEIGHTEDPODAFFINITYTERM: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.WeightedPodAffinityTerm",
    proto: "k8s.io.api.core.v1.WeightedPodAffinityTerm",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("weight", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "podAffinityTerm",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PODAFFINITYTERM)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_CORE_V1_WINDOWSSECURITYCONTEXTOPTIONS: TypeDef = TypeDef {
    name: "io.k8s.api.core.v1.WindowsSecurityContextOptions",
    proto: "k8s.io.api.core.v1.WindowsSecurityContextOptions",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "gmsaCredentialSpecName",
            1,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "gmsaCredentialSpec",
            2,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new("runAsUserName", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("hostProcess", 4, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_DISCOVERY_V1_ENDPOINT: TypeDef = TypeDef {
    name: "io.k8s.api.discovery.v1.Endpoint",
    proto: "k8s.io.api.discovery.v1.Endpoint",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("addresses", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("set"), &[])
            .zero(Z::Null),
        FieldDef::new(
            "conditions",
            2,
            K::Single(E::Message(&IO_K8S_API_DISCOVERY_V1_ENDPOINTCONDITIONS)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new("hostname", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "targetRef",
            4,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            true,
        ),
        FieldDef::new("deprecatedTopology", 5, K::Map(E::Scalar(S::String)), true),
        FieldDef::new("nodeName", 6, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("zone", 7, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "hints",
            8,
            K::Single(E::Message(&IO_K8S_API_DISCOVERY_V1_ENDPOINTHINTS)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_DISCOVERY_V1_ENDPOINTCONDITIONS: TypeDef = TypeDef {
    name: "io.k8s.api.discovery.v1.EndpointConditions",
    proto: "k8s.io.api.discovery.v1.EndpointConditions",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("ready", 1, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("serving", 2, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("terminating", 3, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_API_DISCOVERY_V1_ENDPOINTHINTS: TypeDef = TypeDef {
    name: "io.k8s.api.discovery.v1.EndpointHints",
    proto: "k8s.io.api.discovery.v1.EndpointHints",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "forZones",
            1,
            K::List(E::Message(&IO_K8S_API_DISCOVERY_V1_FORZONE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "forNodes",
            2,
            K::List(E::Message(&IO_K8S_API_DISCOVERY_V1_FORNODE)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_DISCOVERY_V1_ENDPOINTPORT: TypeDef = TypeDef {
    name: "io.k8s.api.discovery.v1.EndpointPort",
    proto: "k8s.io.api.discovery.v1.EndpointPort",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("protocol", 2, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("port", 3, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new("appProtocol", 4, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_DISCOVERY_V1_ENDPOINTSLICE: TypeDef = TypeDef {
    name: "io.k8s.api.discovery.v1.EndpointSlice",
    proto: "k8s.io.api.discovery.v1.EndpointSlice",
    gvk: Some(Gvk {
        group: "discovery.k8s.io",
        version: "v1",
        kind: "EndpointSlice",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 5, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "endpoints",
            2,
            K::List(E::Message(&IO_K8S_API_DISCOVERY_V1_ENDPOINT)),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "ports",
            3,
            K::List(E::Message(&IO_K8S_API_DISCOVERY_V1_ENDPOINTPORT)),
            true,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new("addressType", 4, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_DISCOVERY_V1_ENDPOINTSLICELIST: TypeDef = TypeDef {
    name: "io.k8s.api.discovery.v1.EndpointSliceList",
    proto: "k8s.io.api.discovery.v1.EndpointSliceList",
    gvk: Some(Gvk {
        group: "discovery.k8s.io",
        version: "v1",
        kind: "EndpointSliceList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_DISCOVERY_V1_ENDPOINTSLICE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_DISCOVERY_V1_FORNODE: TypeDef = TypeDef {
    name: "io.k8s.api.discovery.v1.ForNode",
    proto: "k8s.io.api.discovery.v1.ForNode",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String(""))],
};

pub(crate) static IO_K8S_API_DISCOVERY_V1_FORZONE: TypeDef = TypeDef {
    name: "io.k8s.api.discovery.v1.ForZone",
    proto: "k8s.io.api.discovery.v1.ForZone",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String(""))],
};

pub(crate) static IO_K8S_API_EVENTS_V1_EVENT: TypeDef = TypeDef {
    name: "io.k8s.api.events.v1.Event",
    proto: "k8s.io.api.events.v1.Event",
    gvk: Some(Gvk {
        group: "events.k8s.io",
        version: "v1",
        kind: "Event",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "eventTime",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "series",
            3,
            K::Single(E::Message(&IO_K8S_API_EVENTS_V1_EVENTSERIES)),
            true,
        ),
        FieldDef::new(
            "reportingController",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "reportingInstance",
            5,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("action", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("reason", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "regarding",
            8,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "related",
            9,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_OBJECTREFERENCE)),
            true,
        ),
        FieldDef::new("note", 10, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("type", 11, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "deprecatedSource",
            12,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_EVENTSOURCE)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "deprecatedFirstTimestamp",
            13,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "deprecatedLastTimestamp",
            14,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("deprecatedCount", 15, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_EVENTS_V1_EVENTLIST: TypeDef = TypeDef {
    name: "io.k8s.api.events.v1.EventList",
    proto: "k8s.io.api.events.v1.EventList",
    gvk: Some(Gvk {
        group: "events.k8s.io",
        version: "v1",
        kind: "EventList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_EVENTS_V1_EVENT)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_EVENTS_V1_EVENTSERIES: TypeDef = TypeDef {
    name: "io.k8s.api.events.v1.EventSeries",
    proto: "k8s.io.api.events.v1.EventSeries",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("count", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "lastObservedTime",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_EXEMPTPRIORITYLEVELCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration",
    proto: "k8s.io.api.flowcontrol.v1.ExemptPriorityLevelConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "nominalConcurrencyShares",
            1,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
        FieldDef::new("lendablePercent", 2, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_FLOWDISTINGUISHERMETHOD: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.FlowDistinguisherMethod",
    proto: "k8s.io.api.flowcontrol.v1.FlowDistinguisherMethod",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String(""))],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMA: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.FlowSchema",
    proto: "k8s.io.api.flowcontrol.v1.FlowSchema",
    gvk: Some(Gvk {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1",
        kind: "FlowSchema",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMASPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMASTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMACONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.FlowSchemaCondition",
    proto: "k8s.io.api.flowcontrol.v1.FlowSchemaCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "lastTransitionTime",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMALIST: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.FlowSchemaList",
    proto: "k8s.io.api.flowcontrol.v1.FlowSchemaList",
    gvk: Some(Gvk {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1",
        kind: "FlowSchemaList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMA)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMASPEC: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.FlowSchemaSpec",
    proto: "k8s.io.api.flowcontrol.v1.FlowSchemaSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "priorityLevelConfiguration",
            1,
            K::Single(E::Message(
                &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONREFERENCE,
            )),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "matchingPrecedence",
            2,
            K::Single(E::Scalar(S::Int32)),
            true,
        )
        .zero(Z::Number),
        FieldDef::new(
            "distinguisherMethod",
            3,
            K::Single(E::Message(
                &IO_K8S_API_FLOWCONTROL_V1_FLOWDISTINGUISHERMETHOD,
            )),
            true,
        ),
        FieldDef::new(
            "rules",
            4,
            K::List(E::Message(
                &IO_K8S_API_FLOWCONTROL_V1_POLICYRULESWITHSUBJECTS,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMASTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.FlowSchemaStatus",
    proto: "k8s.io.api.flowcontrol.v1.FlowSchemaStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "conditions",
        1,
        K::List(E::Message(&IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMACONDITION)),
        true,
    )
    .patch(Some("merge"), Some("type"))
    .list(Some("map"), &["type"])],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_GROUPSUBJECT: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.GroupSubject",
    proto: "k8s.io.api.flowcontrol.v1.GroupSubject",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String(""))],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_LIMITRESPONSE: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.LimitResponse",
    proto: "k8s.io.api.flowcontrol.v1.LimitResponse",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "queuing",
            2,
            K::Single(E::Message(&IO_K8S_API_FLOWCONTROL_V1_QUEUINGCONFIGURATION)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_LIMITEDPRIORITYLEVELCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration",
    proto: "k8s.io.api.flowcontrol.v1.LimitedPriorityLevelConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "nominalConcurrencyShares",
            1,
            K::Single(E::Scalar(S::Int32)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "limitResponse",
            2,
            K::Single(E::Message(&IO_K8S_API_FLOWCONTROL_V1_LIMITRESPONSE)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new("lendablePercent", 3, K::Single(E::Scalar(S::Int32)), true),
        FieldDef::new(
            "borrowingLimitPercent",
            4,
            K::Single(E::Scalar(S::Int32)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_NONRESOURCEPOLICYRULE: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.NonResourcePolicyRule",
    proto: "k8s.io.api.flowcontrol.v1.NonResourcePolicyRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("verbs", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("set"), &[])
            .zero(Z::Null),
        FieldDef::new("nonResourceURLs", 6, K::List(E::Scalar(S::String)), false)
            .list(Some("set"), &[])
            .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_POLICYRULESWITHSUBJECTS: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.PolicyRulesWithSubjects",
    proto: "k8s.io.api.flowcontrol.v1.PolicyRulesWithSubjects",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "subjects",
            1,
            K::List(E::Message(&IO_K8S_API_FLOWCONTROL_V1_SUBJECT)),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "resourceRules",
            2,
            K::List(E::Message(&IO_K8S_API_FLOWCONTROL_V1_RESOURCEPOLICYRULE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "nonResourceRules",
            3,
            K::List(E::Message(&IO_K8S_API_FLOWCONTROL_V1_NONRESOURCEPOLICYRULE)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration",
    proto: "k8s.io.api.flowcontrol.v1.PriorityLevelConfiguration",
    gvk: Some(Gvk {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1",
        kind: "PriorityLevelConfiguration",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONSPEC,
            )),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(
                &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONCONDITION: TypeDef =
    TypeDef {
        name: "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationCondition",
        proto: "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationCondition",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "lastTransitionTime",
                3,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
                true,
            )
            .zero(Z::Null),
            FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        ],
    };

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONLIST: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationList",
    proto: "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationList",
    gvk: Some(Gvk {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1",
        kind: "PriorityLevelConfigurationList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATION,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONREFERENCE: TypeDef =
    TypeDef {
        name: "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationReference",
        proto: "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationReference",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        ],
    };

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec",
    proto: "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "limited",
            2,
            K::Single(E::Message(
                &IO_K8S_API_FLOWCONTROL_V1_LIMITEDPRIORITYLEVELCONFIGURATION,
            )),
            true,
        ),
        FieldDef::new(
            "exempt",
            3,
            K::Single(E::Message(
                &IO_K8S_API_FLOWCONTROL_V1_EXEMPTPRIORITYLEVELCONFIGURATION,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus",
    proto: "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "conditions",
        1,
        K::List(E::Message(
            &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONCONDITION,
        )),
        true,
    )
    .patch(Some("merge"), Some("type"))
    .list(Some("map"), &["type"])],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_QUEUINGCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.QueuingConfiguration",
    proto: "k8s.io.api.flowcontrol.v1.QueuingConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("queues", 1, K::Single(E::Scalar(S::Int32)), true).zero(Z::Number),
        FieldDef::new("handSize", 2, K::Single(E::Scalar(S::Int32)), true).zero(Z::Number),
        FieldDef::new("queueLengthLimit", 3, K::Single(E::Scalar(S::Int32)), true).zero(Z::Number),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_RESOURCEPOLICYRULE: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.ResourcePolicyRule",
    proto: "k8s.io.api.flowcontrol.v1.ResourcePolicyRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("verbs", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("set"), &[])
            .zero(Z::Null),
        FieldDef::new("apiGroups", 2, K::List(E::Scalar(S::String)), false)
            .list(Some("set"), &[])
            .zero(Z::Null),
        FieldDef::new("resources", 3, K::List(E::Scalar(S::String)), false)
            .list(Some("set"), &[])
            .zero(Z::Null),
        FieldDef::new("clusterScope", 4, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("namespaces", 5, K::List(E::Scalar(S::String)), true)
            .list(Some("set"), &[])
            .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_SERVICEACCOUNTSUBJECT: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.ServiceAccountSubject",
    proto: "k8s.io.api.flowcontrol.v1.ServiceAccountSubject",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("namespace", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_SUBJECT: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.Subject",
    proto: "k8s.io.api.flowcontrol.v1.Subject",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("kind", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "user",
            2,
            K::Single(E::Message(&IO_K8S_API_FLOWCONTROL_V1_USERSUBJECT)),
            true,
        ),
        FieldDef::new(
            "group",
            3,
            K::Single(E::Message(&IO_K8S_API_FLOWCONTROL_V1_GROUPSUBJECT)),
            true,
        ),
        FieldDef::new(
            "serviceAccount",
            4,
            K::Single(E::Message(&IO_K8S_API_FLOWCONTROL_V1_SERVICEACCOUNTSUBJECT)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_FLOWCONTROL_V1_USERSUBJECT: TypeDef = TypeDef {
    name: "io.k8s.api.flowcontrol.v1.UserSubject",
    proto: "k8s.io.api.flowcontrol.v1.UserSubject",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String(""))],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_HTTPINGRESSPATH: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.HTTPIngressPath",
    proto: "k8s.io.api.networking.v1.HTTPIngressPath",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 2, 1],
    fields: &[
        FieldDef::new("path", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "backend",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSBACKEND)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("pathType", 3, K::Single(E::Scalar(S::String)), false).zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_HTTPINGRESSRULEVALUE: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.HTTPIngressRuleValue",
    proto: "k8s.io.api.networking.v1.HTTPIngressRuleValue",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "paths",
        1,
        K::List(E::Message(&IO_K8S_API_NETWORKING_V1_HTTPINGRESSPATH)),
        false,
    )
    .list(Some("atomic"), &[])
    .zero(Z::Null)],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_IPADDRESS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IPAddress",
    proto: "k8s.io.api.networking.v1.IPAddress",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "IPAddress",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_IPADDRESSSPEC)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_IPADDRESSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IPAddressList",
    proto: "k8s.io.api.networking.v1.IPAddressList",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "IPAddressList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_IPADDRESS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_IPADDRESSSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IPAddressSpec",
    proto: "k8s.io.api.networking.v1.IPAddressSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "parentRef",
        1,
        K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_PARENTREFERENCE)),
        false,
    )],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_IPBLOCK: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IPBlock",
    proto: "k8s.io.api.networking.v1.IPBlock",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("cidr", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("except", 2, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.Ingress",
    proto: "k8s.io.api.networking.v1.Ingress",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "Ingress",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSBACKEND: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressBackend",
    proto: "k8s.io.api.networking.v1.IngressBackend",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0],
    fields: &[
        FieldDef::new(
            "resource",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_TYPEDLOCALOBJECTREFERENCE)),
            true,
        ),
        FieldDef::new(
            "service",
            4,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSSERVICEBACKEND)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSCLASS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressClass",
    proto: "k8s.io.api.networking.v1.IngressClass",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "IngressClass",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSCLASSSPEC)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSCLASSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressClassList",
    proto: "k8s.io.api.networking.v1.IngressClassList",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "IngressClassList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSCLASS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSCLASSPARAMETERSREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressClassParametersReference",
    proto: "k8s.io.api.networking.v1.IngressClassParametersReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("apiGroup", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("scope", 4, K::Single(E::Scalar(S::String)), true).zero(Z::Null),
        FieldDef::new("namespace", 5, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSCLASSSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressClassSpec",
    proto: "k8s.io.api.networking.v1.IngressClassSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("controller", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "parameters",
            2,
            K::Single(E::Message(
                &IO_K8S_API_NETWORKING_V1_INGRESSCLASSPARAMETERSREFERENCE,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressList",
    proto: "k8s.io.api.networking.v1.IngressList",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "IngressList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSLOADBALANCERINGRESS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressLoadBalancerIngress",
    proto: "k8s.io.api.networking.v1.IngressLoadBalancerIngress",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("ip", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("hostname", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "ports",
            4,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSPORTSTATUS)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSLOADBALANCERSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressLoadBalancerStatus",
    proto: "k8s.io.api.networking.v1.IngressLoadBalancerStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "ingress",
        1,
        K::List(E::Message(
            &IO_K8S_API_NETWORKING_V1_INGRESSLOADBALANCERINGRESS,
        )),
        true,
    )
    .list(Some("atomic"), &[])],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSPORTSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressPortStatus",
    proto: "k8s.io.api.networking.v1.IngressPortStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("port", 1, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("protocol", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("error", 3, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSRULE: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressRule",
    proto: "k8s.io.api.networking.v1.IngressRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("host", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSRULEVALUE)),
            true,
        )
        .inline()
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSRULEVALUE: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressRuleValue",
    proto: "k8s.io.api.networking.v1.IngressRuleValue",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 0, 1],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "http",
            1,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_HTTPINGRESSRULEVALUE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSSERVICEBACKEND: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressServiceBackend",
    proto: "k8s.io.api.networking.v1.IngressServiceBackend",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "port",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_SERVICEBACKENDPORT)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressSpec",
    proto: "k8s.io.api.networking.v1.IngressSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[3, 0, 1, 2],
    fields: &[
        FieldDef::new(
            "defaultBackend",
            1,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSBACKEND)),
            true,
        ),
        FieldDef::new(
            "tls",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSTLS)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "rules",
            3,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_INGRESSRULE)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("ingressClassName", 4, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressStatus",
    proto: "k8s.io.api.networking.v1.IngressStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "loadBalancer",
        1,
        K::Single(E::Message(
            &IO_K8S_API_NETWORKING_V1_INGRESSLOADBALANCERSTATUS,
        )),
        true,
    )
    .zero(Z::Object)],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_INGRESSTLS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.IngressTLS",
    proto: "k8s.io.api.networking.v1.IngressTLS",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("hosts", 1, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("secretName", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_NETWORKPOLICY: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.NetworkPolicy",
    proto: "k8s.io.api.networking.v1.NetworkPolicy",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "NetworkPolicy",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_NETWORKPOLICYSPEC)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_NETWORKPOLICYEGRESSRULE: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.NetworkPolicyEgressRule",
    proto: "k8s.io.api.networking.v1.NetworkPolicyEgressRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "ports",
            1,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_NETWORKPOLICYPORT)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "to",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_NETWORKPOLICYPEER)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_NETWORKPOLICYINGRESSRULE: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.NetworkPolicyIngressRule",
    proto: "k8s.io.api.networking.v1.NetworkPolicyIngressRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "ports",
            1,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_NETWORKPOLICYPORT)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "from",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_NETWORKPOLICYPEER)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_NETWORKPOLICYLIST: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.NetworkPolicyList",
    proto: "k8s.io.api.networking.v1.NetworkPolicyList",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "NetworkPolicyList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_NETWORKPOLICY)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_NETWORKPOLICYPEER: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.NetworkPolicyPeer",
    proto: "k8s.io.api.networking.v1.NetworkPolicyPeer",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "podSelector",
            1,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "namespaceSelector",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "ipBlock",
            3,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_IPBLOCK)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_NETWORKPOLICYPORT: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.NetworkPolicyPort",
    proto: "k8s.io.api.networking.v1.NetworkPolicyPort",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("protocol", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "port",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            true,
        ),
        FieldDef::new("endPort", 3, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_NETWORKPOLICYSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.NetworkPolicySpec",
    proto: "k8s.io.api.networking.v1.NetworkPolicySpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "podSelector",
            1,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "ingress",
            2,
            K::List(E::Message(
                &IO_K8S_API_NETWORKING_V1_NETWORKPOLICYINGRESSRULE,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "egress",
            3,
            K::List(E::Message(
                &IO_K8S_API_NETWORKING_V1_NETWORKPOLICYEGRESSRULE,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("policyTypes", 4, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_PARENTREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.ParentReference",
    proto: "k8s.io.api.networking.v1.ParentReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("group", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resource", 2, K::Single(E::Scalar(S::String)), false).omits_zero(),
        FieldDef::new("namespace", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("name", 4, K::Single(E::Scalar(S::String)), false).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_SERVICEBACKENDPORT: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.ServiceBackendPort",
    proto: "k8s.io.api.networking.v1.ServiceBackendPort",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("number", 2, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_SERVICECIDR: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.ServiceCIDR",
    proto: "k8s.io.api.networking.v1.ServiceCIDR",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "ServiceCIDR",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_SERVICECIDRSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1_SERVICECIDRSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_SERVICECIDRLIST: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.ServiceCIDRList",
    proto: "k8s.io.api.networking.v1.ServiceCIDRList",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1",
        kind: "ServiceCIDRList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1_SERVICECIDR)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_SERVICECIDRSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.ServiceCIDRSpec",
    proto: "k8s.io.api.networking.v1.ServiceCIDRSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("cidrs", 1, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1_SERVICECIDRSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1.ServiceCIDRStatus",
    proto: "k8s.io.api.networking.v1.ServiceCIDRStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "conditions",
        1,
        K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION)),
        true,
    )
    .patch(Some("merge"), Some("type"))
    .list(Some("map"), &["type"])],
};

pub(crate) static IO_K8S_API_NETWORKING_V1BETA1_IPADDRESS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1beta1.IPAddress",
    proto: "k8s.io.api.networking.v1beta1.IPAddress",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1beta1",
        kind: "IPAddress",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1BETA1_IPADDRESSSPEC)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1BETA1_IPADDRESSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1beta1.IPAddressList",
    proto: "k8s.io.api.networking.v1beta1.IPAddressList",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1beta1",
        kind: "IPAddressList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1BETA1_IPADDRESS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1BETA1_IPADDRESSSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1beta1.IPAddressSpec",
    proto: "k8s.io.api.networking.v1beta1.IPAddressSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "parentRef",
        1,
        K::Single(E::Message(&IO_K8S_API_NETWORKING_V1BETA1_PARENTREFERENCE)),
        false,
    )],
};

pub(crate) static IO_K8S_API_NETWORKING_V1BETA1_PARENTREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1beta1.ParentReference",
    proto: "k8s.io.api.networking.v1beta1.ParentReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("group", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resource", 2, K::Single(E::Scalar(S::String)), false).omits_zero(),
        FieldDef::new("namespace", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("name", 4, K::Single(E::Scalar(S::String)), false).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDR: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1beta1.ServiceCIDR",
    proto: "k8s.io.api.networking.v1beta1.ServiceCIDR",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1beta1",
        kind: "ServiceCIDR",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDRSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDRSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDRLIST: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1beta1.ServiceCIDRList",
    proto: "k8s.io.api.networking.v1beta1.ServiceCIDRList",
    gvk: Some(Gvk {
        group: "networking.k8s.io",
        version: "v1beta1",
        kind: "ServiceCIDRList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDR)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDRSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1beta1.ServiceCIDRSpec",
    proto: "k8s.io.api.networking.v1beta1.ServiceCIDRSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("cidrs", 1, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDRSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.networking.v1beta1.ServiceCIDRStatus",
    proto: "k8s.io.api.networking.v1beta1.ServiceCIDRStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "conditions",
        1,
        K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION)),
        true,
    )
    .patch(Some("merge"), Some("type"))
    .list(Some("map"), &["type"])],
};

pub(crate) static IO_K8S_API_NODE_V1_OVERHEAD: TypeDef = TypeDef {
    name: "io.k8s.api.node.v1.Overhead",
    proto: "k8s.io.api.node.v1.Overhead",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "podFixed",
        1,
        K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
        true,
    )],
};

pub(crate) static IO_K8S_API_NODE_V1_RUNTIMECLASS: TypeDef = TypeDef {
    name: "io.k8s.api.node.v1.RuntimeClass",
    proto: "k8s.io.api.node.v1.RuntimeClass",
    gvk: Some(Gvk {
        group: "node.k8s.io",
        version: "v1",
        kind: "RuntimeClass",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("handler", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "overhead",
            3,
            K::Single(E::Message(&IO_K8S_API_NODE_V1_OVERHEAD)),
            true,
        ),
        FieldDef::new(
            "scheduling",
            4,
            K::Single(E::Message(&IO_K8S_API_NODE_V1_SCHEDULING)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_NODE_V1_RUNTIMECLASSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.node.v1.RuntimeClassList",
    proto: "k8s.io.api.node.v1.RuntimeClassList",
    gvk: Some(Gvk {
        group: "node.k8s.io",
        version: "v1",
        kind: "RuntimeClassList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_NODE_V1_RUNTIMECLASS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_NODE_V1_SCHEDULING: TypeDef = TypeDef {
    name: "io.k8s.api.node.v1.Scheduling",
    proto: "k8s.io.api.node.v1.Scheduling",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("nodeSelector", 1, K::Map(E::Scalar(S::String)), true).map_type("atomic"),
        FieldDef::new(
            "tolerations",
            2,
            K::List(E::Message(&IO_K8S_API_CORE_V1_TOLERATION)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_POLICY_V1_EVICTION: TypeDef = TypeDef {
    name: "io.k8s.api.policy.v1.Eviction",
    proto: "k8s.io.api.policy.v1.Eviction",
    gvk: Some(Gvk {
        group: "policy",
        version: "v1",
        kind: "Eviction",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "deleteOptions",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_DELETEOPTIONS,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGET: TypeDef = TypeDef {
    name: "io.k8s.api.policy.v1.PodDisruptionBudget",
    proto: "k8s.io.api.policy.v1.PodDisruptionBudget",
    gvk: Some(Gvk {
        group: "policy",
        version: "v1",
        kind: "PodDisruptionBudget",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGETSPEC)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGETSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGETLIST: TypeDef = TypeDef {
    name: "io.k8s.api.policy.v1.PodDisruptionBudgetList",
    proto: "k8s.io.api.policy.v1.PodDisruptionBudgetList",
    gvk: Some(Gvk {
        group: "policy",
        version: "v1",
        kind: "PodDisruptionBudgetList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGET)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGETSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.policy.v1.PodDisruptionBudgetSpec",
    proto: "k8s.io.api.policy.v1.PodDisruptionBudgetSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "minAvailable",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            true,
        ),
        FieldDef::new(
            "selector",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        )
        .patch(Some("replace"), None),
        FieldDef::new(
            "maxUnavailable",
            3,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING)),
            true,
        ),
        FieldDef::new(
            "unhealthyPodEvictionPolicy",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGETSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.policy.v1.PodDisruptionBudgetStatus",
    proto: "k8s.io.api.policy.v1.PodDisruptionBudgetStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "observedGeneration",
            1,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "disruptedPods",
            2,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
        FieldDef::new(
            "disruptionsAllowed",
            3,
            K::Single(E::Scalar(S::Int32)),
            false,
        )
        .zero(Z::Number),
        FieldDef::new("currentHealthy", 4, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("desiredHealthy", 5, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("expectedPods", 6, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new(
            "conditions",
            7,
            K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION)),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"]),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_AGGREGATIONRULE: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.AggregationRule",
    proto: "k8s.io.api.rbac.v1.AggregationRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "clusterRoleSelectors",
        1,
        K::List(E::Message(
            &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
        )),
        true,
    )
    .list(Some("atomic"), &[])],
};

pub(crate) static IO_K8S_API_RBAC_V1_CLUSTERROLE: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.ClusterRole",
    proto: "k8s.io.api.rbac.v1.ClusterRole",
    gvk: Some(Gvk {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "ClusterRole",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "rules",
            2,
            K::List(E::Message(&IO_K8S_API_RBAC_V1_POLICYRULE)),
            true,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "aggregationRule",
            3,
            K::Single(E::Message(&IO_K8S_API_RBAC_V1_AGGREGATIONRULE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_CLUSTERROLEBINDING: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.ClusterRoleBinding",
    proto: "k8s.io.api.rbac.v1.ClusterRoleBinding",
    gvk: Some(Gvk {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "ClusterRoleBinding",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "subjects",
            2,
            K::List(E::Message(&IO_K8S_API_RBAC_V1_SUBJECT)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "roleRef",
            3,
            K::Single(E::Message(&IO_K8S_API_RBAC_V1_ROLEREF)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_CLUSTERROLEBINDINGLIST: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.ClusterRoleBindingList",
    proto: "k8s.io.api.rbac.v1.ClusterRoleBindingList",
    gvk: Some(Gvk {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "ClusterRoleBindingList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RBAC_V1_CLUSTERROLEBINDING)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_CLUSTERROLELIST: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.ClusterRoleList",
    proto: "k8s.io.api.rbac.v1.ClusterRoleList",
    gvk: Some(Gvk {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "ClusterRoleList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RBAC_V1_CLUSTERROLE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_POLICYRULE: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.PolicyRule",
    proto: "k8s.io.api.rbac.v1.PolicyRule",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("verbs", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new("apiGroups", 2, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("resources", 3, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("resourceNames", 4, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("nonResourceURLs", 5, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_ROLE: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.Role",
    proto: "k8s.io.api.rbac.v1.Role",
    gvk: Some(Gvk {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "Role",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "rules",
            2,
            K::List(E::Message(&IO_K8S_API_RBAC_V1_POLICYRULE)),
            true,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_ROLEBINDING: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.RoleBinding",
    proto: "k8s.io.api.rbac.v1.RoleBinding",
    gvk: Some(Gvk {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "RoleBinding",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "subjects",
            2,
            K::List(E::Message(&IO_K8S_API_RBAC_V1_SUBJECT)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "roleRef",
            3,
            K::Single(E::Message(&IO_K8S_API_RBAC_V1_ROLEREF)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_ROLEBINDINGLIST: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.RoleBindingList",
    proto: "k8s.io.api.rbac.v1.RoleBindingList",
    gvk: Some(Gvk {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "RoleBindingList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RBAC_V1_ROLEBINDING)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_ROLELIST: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.RoleList",
    proto: "k8s.io.api.rbac.v1.RoleList",
    gvk: Some(Gvk {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "RoleList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RBAC_V1_ROLE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_ROLEREF: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.RoleRef",
    proto: "k8s.io.api.rbac.v1.RoleRef",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("apiGroup", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("kind", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RBAC_V1_SUBJECT: TypeDef = TypeDef {
    name: "io.k8s.api.rbac.v1.Subject",
    proto: "k8s.io.api.rbac.v1.Subject",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("kind", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("apiGroup", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("name", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("namespace", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_ALLOCATEDDEVICESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.AllocatedDeviceStatus",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[3, 5, 2, 0, 1, 4],
    fields: &[
        FieldDef::new(
            "conditions",
            0,
            K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "data",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            true,
        ),
        FieldDef::new("device", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("driver", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "networkData",
            0,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_NETWORKDEVICEDATA)),
            true,
        ),
        FieldDef::new("pool", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_ALLOCATIONRESULT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.AllocationResult",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "devices",
            0,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEALLOCATIONRESULT,
            )),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "nodeSelector",
            0,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_BASICDEVICE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.BasicDevice",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 2, 3, 4, 5, 0, 6],
    fields: &[
        FieldDef::new("allNodes", 0, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "attributes",
            0,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEATTRIBUTE)),
            true,
        ),
        FieldDef::new(
            "capacity",
            0,
            K::Map(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "consumesCounters",
            0,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECOUNTERCONSUMPTION,
            )),
            true,
        ),
        FieldDef::new("nodeName", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "nodeSelector",
            0,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
        FieldDef::new(
            "taints",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINT)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_CELDEVICESELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.CELDeviceSelector",
    proto: "k8s.io.api.resource.v1alpha3.CELDeviceSelector",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("expression", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_COUNTER: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.Counter",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "value",
        0,
        K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
        false,
    )
    .zero(Z::String("0"))],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_COUNTERSET: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.CounterSet",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0],
    fields: &[
        FieldDef::new(
            "counters",
            0,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_COUNTER)),
            false,
        ),
        FieldDef::new("name", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.Device",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0],
    fields: &[
        FieldDef::new(
            "basic",
            0,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_BASICDEVICE)),
            true,
        ),
        FieldDef::new("name", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEALLOCATIONCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceAllocationConfiguration",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 1, 0],
    fields: &[
        FieldDef::new(
            "opaque",
            0,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_OPAQUEDEVICECONFIGURATION,
            )),
            true,
        ),
        FieldDef::new("requests", 0, K::List(E::Scalar(S::String)), true),
        FieldDef::new("source", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEALLOCATIONRESULT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceAllocationResult",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0],
    fields: &[
        FieldDef::new(
            "config",
            0,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEALLOCATIONCONFIGURATION,
            )),
            true,
        ),
        FieldDef::new(
            "results",
            0,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEREQUESTALLOCATIONRESULT,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEATTRIBUTE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceAttribute",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("bool", 0, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("int", 0, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("string", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("version", 0, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLAIM: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceClaim",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 1, 0],
    fields: &[
        FieldDef::new(
            "config",
            0,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLAIMCONFIGURATION,
            )),
            true,
        ),
        FieldDef::new(
            "constraints",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECONSTRAINT)),
            true,
        ),
        FieldDef::new(
            "requests",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEREQUEST)),
            true,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLAIMCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceClaimConfiguration",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0],
    fields: &[
        FieldDef::new(
            "opaque",
            0,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_OPAQUEDEVICECONFIGURATION,
            )),
            true,
        ),
        FieldDef::new("requests", 0, K::List(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASS: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceClass",
    proto: "",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "DeviceClass",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            0,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASSSPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASSCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceClassConfiguration",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "opaque",
        0,
        K::Single(E::Message(
            &IO_K8S_API_RESOURCE_V1ALPHA3_OPAQUEDEVICECONFIGURATION,
        )),
        true,
    )],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceClassList",
    proto: "",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "DeviceClassList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASSSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceClassSpec",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0],
    fields: &[
        FieldDef::new(
            "config",
            0,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASSCONFIGURATION,
            )),
            true,
        ),
        FieldDef::new(
            "selectors",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICESELECTOR)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECONSTRAINT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceConstraint",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0],
    fields: &[
        FieldDef::new("matchAttribute", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("requests", 0, K::List(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECOUNTERCONSUMPTION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceCounterConsumption",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("counterSet", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "counters",
            0,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_COUNTER)),
            false,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceRequest",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[5, 3, 6, 1, 2, 0, 4, 7],
    fields: &[
        FieldDef::new("adminAccess", 0, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("allocationMode", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("count", 0, K::Single(E::Scalar(S::Int64)), true).omits_zero(),
        FieldDef::new("deviceClassName", 0, K::Single(E::Scalar(S::String)), true)
            .zero(Z::String("")),
        FieldDef::new(
            "firstAvailable",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICESUBREQUEST)),
            true,
        ),
        FieldDef::new("name", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "selectors",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICESELECTOR)),
            true,
        ),
        FieldDef::new(
            "tolerations",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETOLERATION)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEREQUESTALLOCATIONRESULT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceRequestAllocationResult",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[4, 2, 3, 1, 0, 5],
    fields: &[
        FieldDef::new("adminAccess", 0, K::Single(E::Scalar(S::Bool)), true).zero(Z::Null),
        FieldDef::new("device", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("driver", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("pool", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("request", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "tolerations",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETOLERATION)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICESELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceSelector",
    proto: "k8s.io.api.resource.v1alpha3.DeviceSelector",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "cel",
        1,
        K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_CELDEVICESELECTOR)),
        true,
    )],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICESUBREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceSubRequest",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[3, 2, 4, 0, 1, 5],
    fields: &[
        FieldDef::new("allocationMode", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("count", 0, K::Single(E::Scalar(S::Int64)), true).omits_zero(),
        FieldDef::new("deviceClassName", 0, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("name", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "selectors",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICESELECTOR)),
            true,
        ),
        FieldDef::new(
            "tolerations",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETOLERATION)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceTaint",
    proto: "k8s.io.api.resource.v1alpha3.DeviceTaint",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("effect", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "timeAdded",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceTaintRule",
    proto: "k8s.io.api.resource.v1alpha3.DeviceTaintRule",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "DeviceTaintRule",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULESPEC,
            )),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULELIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceTaintRuleList",
    proto: "k8s.io.api.resource.v1alpha3.DeviceTaintRuleList",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "DeviceTaintRuleList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceTaintRuleSpec",
    proto: "k8s.io.api.resource.v1alpha3.DeviceTaintRuleSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "deviceSelector",
            1,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "taint",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINT)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTSELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceTaintSelector",
    proto: "k8s.io.api.resource.v1alpha3.DeviceTaintSelector",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 2, 3, 4, 1],
    fields: &[
        FieldDef::new("deviceClassName", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "selectors",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICESELECTOR)),
            true,
        ),
        FieldDef::new("driver", 2, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("pool", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("device", 4, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETOLERATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.DeviceToleration",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 2, 4, 0, 3],
    fields: &[
        FieldDef::new("effect", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("key", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("operator", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("tolerationSeconds", 0, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("value", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_NETWORKDEVICEDATA: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.NetworkDeviceData",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 2, 0],
    fields: &[
        FieldDef::new("hardwareAddress", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("interfaceName", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("ips", 0, K::List(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_OPAQUEDEVICECONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.OpaqueDeviceConfiguration",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "parameters",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIM: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceClaim",
    proto: "",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourceClaim",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            0,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMSPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            0,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMCONSUMERREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceClaimConsumerReference",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 2, 1, 3],
    fields: &[
        FieldDef::new("apiGroup", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("name", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("resource", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("uid", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMLIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceClaimList",
    proto: "",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourceClaimList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceClaimSpec",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "devices",
        0,
        K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLAIM)),
        true,
    )
    .zero(Z::Object)],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceClaimStatus",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 2, 1],
    fields: &[
        FieldDef::new(
            "allocation",
            0,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_ALLOCATIONRESULT)),
            true,
        ),
        FieldDef::new(
            "devices",
            0,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_ALLOCATEDDEVICESTATUS,
            )),
            true,
        ),
        FieldDef::new(
            "reservedFor",
            0,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMCONSUMERREFERENCE,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMTEMPLATE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceClaimTemplate",
    proto: "",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourceClaimTemplate",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            0,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMTEMPLATESPEC,
            )),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMTEMPLATELIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceClaimTemplateList",
    proto: "",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourceClaimTemplateList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMTEMPLATESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceClaimTemplateSpec",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metadata",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            0,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMSPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCEPOOL: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourcePool",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2],
    fields: &[
        FieldDef::new("generation", 0, K::Single(E::Scalar(S::Int64)), false).zero(Z::Number),
        FieldDef::new("name", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "resourceSliceCount",
            0,
            K::Single(E::Scalar(S::Int64)),
            false,
        )
        .zero(Z::Number),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCESLICE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceSlice",
    proto: "",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourceSlice",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            0,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCESLICESPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCESLICELIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceSliceList",
    proto: "",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourceSliceList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCESLICESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1alpha3.ResourceSliceSpec",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 6, 3, 4, 0, 1, 5, 7],
    fields: &[
        FieldDef::new("allNodes", 0, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "devices",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_DEVICE)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("driver", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("nodeName", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "nodeSelector",
            0,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
        FieldDef::new(
            "perDeviceNodeSelection",
            0,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new(
            "pool",
            0,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCEPOOL)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "sharedCounters",
            0,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1ALPHA3_COUNTERSET)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_ALLOCATEDDEVICESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.AllocatedDeviceStatus",
    proto: "k8s.io.api.resource.v1beta1.AllocatedDeviceStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("pool", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("device", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "conditions",
            4,
            K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION)),
            true,
        )
        .list(Some("map"), &["type"])
        .zero(Z::Null),
        FieldDef::new(
            "data",
            5,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            true,
        ),
        FieldDef::new(
            "networkData",
            6,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_NETWORKDEVICEDATA)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_ALLOCATIONRESULT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.AllocationResult",
    proto: "k8s.io.api.resource.v1beta1.AllocationResult",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "devices",
            1,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_DEVICEALLOCATIONRESULT,
            )),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "nodeSelector",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_BASICDEVICE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.BasicDevice",
    proto: "k8s.io.api.resource.v1beta1.BasicDevice",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "attributes",
            1,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICEATTRIBUTE)),
            true,
        ),
        FieldDef::new(
            "capacity",
            2,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICECAPACITY)),
            true,
        ),
        FieldDef::new(
            "consumesCounters",
            3,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_DEVICECOUNTERCONSUMPTION,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("nodeName", 4, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "nodeSelector",
            5,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
        FieldDef::new("allNodes", 6, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "taints",
            7,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICETAINT)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_CELDEVICESELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.CELDeviceSelector",
    proto: "k8s.io.api.resource.v1beta1.CELDeviceSelector",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("expression", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_COUNTER: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.Counter",
    proto: "k8s.io.api.resource.v1beta1.Counter",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "value",
        1,
        K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
        false,
    )
    .zero(Z::String("0"))],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_COUNTERSET: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.CounterSet",
    proto: "k8s.io.api.resource.v1beta1.CounterSet",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "counters",
            2,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_COUNTER)),
            false,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.Device",
    proto: "k8s.io.api.resource.v1beta1.Device",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "basic",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_BASICDEVICE)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICEALLOCATIONCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceAllocationConfiguration",
    proto: "k8s.io.api.resource.v1beta1.DeviceAllocationConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("source", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("requests", 2, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new(
            "",
            3,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICECONFIGURATION)),
            true,
        )
        .inline()
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICEALLOCATIONRESULT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceAllocationResult",
    proto: "k8s.io.api.resource.v1beta1.DeviceAllocationResult",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "results",
            1,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_DEVICEREQUESTALLOCATIONRESULT,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "config",
            2,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_DEVICEALLOCATIONCONFIGURATION,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICEATTRIBUTE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceAttribute",
    proto: "k8s.io.api.resource.v1beta1.DeviceAttribute",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("int", 2, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("bool", 3, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("string", 4, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("version", 5, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECAPACITY: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceCapacity",
    proto: "k8s.io.api.resource.v1beta1.DeviceCapacity",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "value",
        1,
        K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
        false,
    )
    .zero(Z::String("0"))],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECLAIM: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceClaim",
    proto: "k8s.io.api.resource.v1beta1.DeviceClaim",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "requests",
            1,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICEREQUEST)),
            true,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "constraints",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICECONSTRAINT)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "config",
            3,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLAIMCONFIGURATION,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECLAIMCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceClaimConfiguration",
    proto: "k8s.io.api.resource.v1beta1.DeviceClaimConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("requests", 1, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new(
            "",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICECONFIGURATION)),
            true,
        )
        .inline()
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASS: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceClass",
    proto: "k8s.io.api.resource.v1beta1.DeviceClass",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "DeviceClass",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASSSPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASSCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceClassConfiguration",
    proto: "k8s.io.api.resource.v1beta1.DeviceClassConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "",
        1,
        K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICECONFIGURATION)),
        true,
    )
    .inline()
    .zero(Z::Object)],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceClassList",
    proto: "k8s.io.api.resource.v1beta1.DeviceClassList",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "DeviceClassList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASSSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceClassSpec",
    proto: "k8s.io.api.resource.v1beta1.DeviceClassSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "selectors",
            1,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICESELECTOR)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "config",
            2,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASSCONFIGURATION,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceConfiguration",
    proto: "k8s.io.api.resource.v1beta1.DeviceConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 0, 1],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "opaque",
            1,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_OPAQUEDEVICECONFIGURATION,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECONSTRAINT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceConstraint",
    proto: "k8s.io.api.resource.v1beta1.DeviceConstraint",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("requests", 1, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("matchAttribute", 2, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICECOUNTERCONSUMPTION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceCounterConsumption",
    proto: "k8s.io.api.resource.v1beta1.DeviceCounterConsumption",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("counterSet", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "counters",
            2,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_COUNTER)),
            false,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICEREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceRequest",
    proto: "k8s.io.api.resource.v1beta1.DeviceRequest",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("deviceClassName", 2, K::Single(E::Scalar(S::String)), true)
            .zero(Z::String("")),
        FieldDef::new(
            "selectors",
            3,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICESELECTOR)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("allocationMode", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("count", 5, K::Single(E::Scalar(S::Int64)), true).omits_zero(),
        FieldDef::new("adminAccess", 6, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "firstAvailable",
            7,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICESUBREQUEST)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "tolerations",
            8,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICETOLERATION)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICEREQUESTALLOCATIONRESULT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceRequestAllocationResult",
    proto: "k8s.io.api.resource.v1beta1.DeviceRequestAllocationResult",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("request", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("driver", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("pool", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("device", 4, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("adminAccess", 5, K::Single(E::Scalar(S::Bool)), true).zero(Z::Null),
        FieldDef::new(
            "tolerations",
            6,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICETOLERATION)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICESELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceSelector",
    proto: "k8s.io.api.resource.v1beta1.DeviceSelector",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "cel",
        1,
        K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_CELDEVICESELECTOR)),
        true,
    )],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICESUBREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceSubRequest",
    proto: "k8s.io.api.resource.v1beta1.DeviceSubRequest",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("deviceClassName", 2, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new(
            "selectors",
            3,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICESELECTOR)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("allocationMode", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("count", 5, K::Single(E::Scalar(S::Int64)), true).omits_zero(),
        FieldDef::new(
            "tolerations",
            7,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICETOLERATION)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICETAINT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceTaint",
    proto: "k8s.io.api.resource.v1beta1.DeviceTaint",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("effect", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "timeAdded",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_DEVICETOLERATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.DeviceToleration",
    proto: "k8s.io.api.resource.v1beta1.DeviceToleration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("operator", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("value", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("effect", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("tolerationSeconds", 5, K::Single(E::Scalar(S::Int64)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_NETWORKDEVICEDATA: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.NetworkDeviceData",
    proto: "k8s.io.api.resource.v1beta1.NetworkDeviceData",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("interfaceName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("ips", 2, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("hardwareAddress", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_OPAQUEDEVICECONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.OpaqueDeviceConfiguration",
    proto: "k8s.io.api.resource.v1beta1.OpaqueDeviceConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "parameters",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIM: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceClaim",
    proto: "k8s.io.api.resource.v1beta1.ResourceClaim",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "ResourceClaim",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMSPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMCONSUMERREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceClaimConsumerReference",
    proto: "k8s.io.api.resource.v1beta1.ResourceClaimConsumerReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("apiGroup", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resource", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 4, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("uid", 5, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMLIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceClaimList",
    proto: "k8s.io.api.resource.v1beta1.ResourceClaimList",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "ResourceClaimList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIM)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceClaimSpec",
    proto: "k8s.io.api.resource.v1beta1.ResourceClaimSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "devices",
        1,
        K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICECLAIM)),
        true,
    )
    .zero(Z::Object)],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceClaimStatus",
    proto: "k8s.io.api.resource.v1beta1.ResourceClaimStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "allocation",
            1,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_ALLOCATIONRESULT)),
            true,
        ),
        FieldDef::new(
            "reservedFor",
            2,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMCONSUMERREFERENCE,
            )),
            true,
        )
        .patch(Some("merge"), Some("uid"))
        .list(Some("map"), &["uid"]),
        FieldDef::new(
            "devices",
            4,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_ALLOCATEDDEVICESTATUS,
            )),
            true,
        )
        .list(Some("map"), &["driver", "device", "pool"]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceClaimTemplate",
    proto: "k8s.io.api.resource.v1beta1.ResourceClaimTemplate",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "ResourceClaimTemplate",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATESPEC,
            )),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATELIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceClaimTemplateList",
    proto: "k8s.io.api.resource.v1beta1.ResourceClaimTemplateList",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "ResourceClaimTemplateList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATE,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceClaimTemplateSpec",
    proto: "k8s.io.api.resource.v1beta1.ResourceClaimTemplateSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMSPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCEPOOL: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourcePool",
    proto: "k8s.io.api.resource.v1beta1.ResourcePool",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("generation", 2, K::Single(E::Scalar(S::Int64)), false).zero(Z::Number),
        FieldDef::new(
            "resourceSliceCount",
            3,
            K::Single(E::Scalar(S::Int64)),
            false,
        )
        .zero(Z::Number),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceSlice",
    proto: "k8s.io.api.resource.v1beta1.ResourceSlice",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "ResourceSlice",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICESPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICELIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceSliceList",
    proto: "k8s.io.api.resource.v1beta1.ResourceSliceList",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "ResourceSliceList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta1.ResourceSliceSpec",
    proto: "k8s.io.api.resource.v1beta1.ResourceSliceSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "pool",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_RESOURCEPOOL)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("nodeName", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "nodeSelector",
            4,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
        FieldDef::new("allNodes", 5, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new(
            "devices",
            6,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_DEVICE)),
            true,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "perDeviceNodeSelection",
            7,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new(
            "sharedCounters",
            8,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA1_COUNTERSET)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_ALLOCATEDDEVICESTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.AllocatedDeviceStatus",
    proto: "k8s.io.api.resource.v1beta2.AllocatedDeviceStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("pool", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("device", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "conditions",
            4,
            K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION)),
            true,
        )
        .list(Some("map"), &["type"])
        .zero(Z::Null),
        FieldDef::new(
            "data",
            5,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            true,
        ),
        FieldDef::new(
            "networkData",
            6,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_NETWORKDEVICEDATA)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_ALLOCATIONRESULT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.AllocationResult",
    proto: "k8s.io.api.resource.v1beta2.AllocationResult",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "devices",
            1,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_DEVICEALLOCATIONRESULT,
            )),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "nodeSelector",
            3,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_CELDEVICESELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.CELDeviceSelector",
    proto: "k8s.io.api.resource.v1beta2.CELDeviceSelector",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("expression", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_COUNTER: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.Counter",
    proto: "k8s.io.api.resource.v1beta2.Counter",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "value",
        1,
        K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
        false,
    )
    .zero(Z::String("0"))],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_COUNTERSET: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.CounterSet",
    proto: "k8s.io.api.resource.v1beta2.CounterSet",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "counters",
            2,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_COUNTER)),
            false,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.Device",
    proto: "k8s.io.api.resource.v1beta2.Device",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "attributes",
            2,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICEATTRIBUTE)),
            true,
        ),
        FieldDef::new(
            "capacity",
            3,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICECAPACITY)),
            true,
        ),
        FieldDef::new(
            "consumesCounters",
            4,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_DEVICECOUNTERCONSUMPTION,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("nodeName", 5, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "nodeSelector",
            6,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
        FieldDef::new("allNodes", 7, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "taints",
            8,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICETAINT)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICEALLOCATIONCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceAllocationConfiguration",
    proto: "k8s.io.api.resource.v1beta2.DeviceAllocationConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("source", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("requests", 2, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new(
            "",
            3,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICECONFIGURATION)),
            true,
        )
        .inline()
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICEALLOCATIONRESULT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceAllocationResult",
    proto: "k8s.io.api.resource.v1beta2.DeviceAllocationResult",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "results",
            1,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_DEVICEREQUESTALLOCATIONRESULT,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "config",
            2,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_DEVICEALLOCATIONCONFIGURATION,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICEATTRIBUTE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceAttribute",
    proto: "k8s.io.api.resource.v1beta2.DeviceAttribute",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("int", 2, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("bool", 3, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("string", 4, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("version", 5, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECAPACITY: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceCapacity",
    proto: "k8s.io.api.resource.v1beta2.DeviceCapacity",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "value",
        1,
        K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
        false,
    )
    .zero(Z::String("0"))],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECLAIM: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceClaim",
    proto: "k8s.io.api.resource.v1beta2.DeviceClaim",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "requests",
            1,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICEREQUEST)),
            true,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "constraints",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICECONSTRAINT)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "config",
            3,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLAIMCONFIGURATION,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECLAIMCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceClaimConfiguration",
    proto: "k8s.io.api.resource.v1beta2.DeviceClaimConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("requests", 1, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new(
            "",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICECONFIGURATION)),
            true,
        )
        .inline()
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASS: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceClass",
    proto: "k8s.io.api.resource.v1beta2.DeviceClass",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "DeviceClass",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASSSPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASSCONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceClassConfiguration",
    proto: "k8s.io.api.resource.v1beta2.DeviceClassConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "",
        1,
        K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICECONFIGURATION)),
        true,
    )
    .inline()
    .zero(Z::Object)],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceClassList",
    proto: "k8s.io.api.resource.v1beta2.DeviceClassList",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "DeviceClassList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASSSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceClassSpec",
    proto: "k8s.io.api.resource.v1beta2.DeviceClassSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "selectors",
            1,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICESELECTOR)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new(
            "config",
            2,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASSCONFIGURATION,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceConfiguration",
    proto: "k8s.io.api.resource.v1beta2.DeviceConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 0, 1],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "opaque",
            1,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_OPAQUEDEVICECONFIGURATION,
            )),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECONSTRAINT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceConstraint",
    proto: "k8s.io.api.resource.v1beta2.DeviceConstraint",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("requests", 1, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("matchAttribute", 2, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICECOUNTERCONSUMPTION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceCounterConsumption",
    proto: "k8s.io.api.resource.v1beta2.DeviceCounterConsumption",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("counterSet", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "counters",
            2,
            K::Map(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_COUNTER)),
            false,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICEREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceRequest",
    proto: "k8s.io.api.resource.v1beta2.DeviceRequest",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "exactly",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_EXACTDEVICEREQUEST)),
            true,
        ),
        FieldDef::new(
            "firstAvailable",
            3,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICESUBREQUEST)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICEREQUESTALLOCATIONRESULT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceRequestAllocationResult",
    proto: "k8s.io.api.resource.v1beta2.DeviceRequestAllocationResult",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("request", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("driver", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("pool", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("device", 4, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("adminAccess", 5, K::Single(E::Scalar(S::Bool)), true).zero(Z::Null),
        FieldDef::new(
            "tolerations",
            6,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICETOLERATION)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICESELECTOR: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceSelector",
    proto: "k8s.io.api.resource.v1beta2.DeviceSelector",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "cel",
        1,
        K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_CELDEVICESELECTOR)),
        true,
    )],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICESUBREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceSubRequest",
    proto: "k8s.io.api.resource.v1beta2.DeviceSubRequest",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("deviceClassName", 2, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new(
            "selectors",
            3,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICESELECTOR)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("allocationMode", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("count", 5, K::Single(E::Scalar(S::Int64)), true).omits_zero(),
        FieldDef::new(
            "tolerations",
            6,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICETOLERATION)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICETAINT: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceTaint",
    proto: "k8s.io.api.resource.v1beta2.DeviceTaint",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("effect", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "timeAdded",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_DEVICETOLERATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.DeviceToleration",
    proto: "k8s.io.api.resource.v1beta2.DeviceToleration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("operator", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("value", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("effect", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("tolerationSeconds", 5, K::Single(E::Scalar(S::Int64)), true),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_EXACTDEVICEREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ExactDeviceRequest",
    proto: "k8s.io.api.resource.v1beta2.ExactDeviceRequest",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("deviceClassName", 1, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new(
            "selectors",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICESELECTOR)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("allocationMode", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("count", 4, K::Single(E::Scalar(S::Int64)), true).omits_zero(),
        FieldDef::new("adminAccess", 5, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "tolerations",
            6,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICETOLERATION)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_NETWORKDEVICEDATA: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.NetworkDeviceData",
    proto: "k8s.io.api.resource.v1beta2.NetworkDeviceData",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("interfaceName", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("ips", 2, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("hardwareAddress", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_OPAQUEDEVICECONFIGURATION: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.OpaqueDeviceConfiguration",
    proto: "k8s.io.api.resource.v1beta2.OpaqueDeviceConfiguration",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "parameters",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIM: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceClaim",
    proto: "k8s.io.api.resource.v1beta2.ResourceClaim",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "ResourceClaim",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMSPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMCONSUMERREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceClaimConsumerReference",
    proto: "k8s.io.api.resource.v1beta2.ResourceClaimConsumerReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("apiGroup", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resource", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 4, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("uid", 5, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMLIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceClaimList",
    proto: "k8s.io.api.resource.v1beta2.ResourceClaimList",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "ResourceClaimList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIM)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceClaimSpec",
    proto: "k8s.io.api.resource.v1beta2.ResourceClaimSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "devices",
        1,
        K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICECLAIM)),
        true,
    )
    .zero(Z::Object)],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceClaimStatus",
    proto: "k8s.io.api.resource.v1beta2.ResourceClaimStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "allocation",
            1,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_ALLOCATIONRESULT)),
            true,
        ),
        FieldDef::new(
            "reservedFor",
            2,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMCONSUMERREFERENCE,
            )),
            true,
        )
        .patch(Some("merge"), Some("uid"))
        .list(Some("map"), &["uid"]),
        FieldDef::new(
            "devices",
            4,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_ALLOCATEDDEVICESTATUS,
            )),
            true,
        )
        .list(Some("map"), &["driver", "device", "pool"]),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceClaimTemplate",
    proto: "k8s.io.api.resource.v1beta2.ResourceClaimTemplate",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "ResourceClaimTemplate",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATESPEC,
            )),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATELIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceClaimTemplateList",
    proto: "k8s.io.api.resource.v1beta2.ResourceClaimTemplateList",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "ResourceClaimTemplateList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATE,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceClaimTemplateSpec",
    proto: "k8s.io.api.resource.v1beta2.ResourceClaimTemplateSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMSPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCEPOOL: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourcePool",
    proto: "k8s.io.api.resource.v1beta2.ResourcePool",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("generation", 2, K::Single(E::Scalar(S::Int64)), false).zero(Z::Number),
        FieldDef::new(
            "resourceSliceCount",
            3,
            K::Single(E::Scalar(S::Int64)),
            false,
        )
        .zero(Z::Number),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICE: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceSlice",
    proto: "k8s.io.api.resource.v1beta2.ResourceSlice",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "ResourceSlice",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICESPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICELIST: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceSliceList",
    proto: "k8s.io.api.resource.v1beta2.ResourceSliceList",
    gvk: Some(Gvk {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "ResourceSliceList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.resource.v1beta2.ResourceSliceSpec",
    proto: "k8s.io.api.resource.v1beta2.ResourceSliceSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("driver", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "pool",
            2,
            K::Single(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_RESOURCEPOOL)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("nodeName", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "nodeSelector",
            4,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_NODESELECTOR)),
            true,
        ),
        FieldDef::new("allNodes", 5, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "devices",
            6,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_DEVICE)),
            true,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "perDeviceNodeSelection",
            7,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new(
            "sharedCounters",
            8,
            K::List(E::Message(&IO_K8S_API_RESOURCE_V1BETA2_COUNTERSET)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_SCHEDULING_V1_PRIORITYCLASS: TypeDef = TypeDef {
    name: "io.k8s.api.scheduling.v1.PriorityClass",
    proto: "k8s.io.api.scheduling.v1.PriorityClass",
    gvk: Some(Gvk {
        group: "scheduling.k8s.io",
        version: "v1",
        kind: "PriorityClass",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5, 6],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("value", 2, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
        FieldDef::new("globalDefault", 3, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("description", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("preemptionPolicy", 5, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_SCHEDULING_V1_PRIORITYCLASSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.scheduling.v1.PriorityClassList",
    proto: "k8s.io.api.scheduling.v1.PriorityClassList",
    gvk: Some(Gvk {
        group: "scheduling.k8s.io",
        version: "v1",
        kind: "PriorityClassList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_SCHEDULING_V1_PRIORITYCLASS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_CSIDRIVER: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.CSIDriver",
    proto: "k8s.io.api.storage.v1.CSIDriver",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "CSIDriver",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_STORAGE_V1_CSIDRIVERSPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_CSIDRIVERLIST: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.CSIDriverList",
    proto: "k8s.io.api.storage.v1.CSIDriverList",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "CSIDriverList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_STORAGE_V1_CSIDRIVER)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_CSIDRIVERSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.CSIDriverSpec",
    proto: "k8s.io.api.storage.v1.CSIDriverSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("attachRequired", 1, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("podInfoOnMount", 2, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "volumeLifecycleModes",
            3,
            K::List(E::Scalar(S::String)),
            true,
        )
        .list(Some("set"), &[]),
        FieldDef::new("storageCapacity", 4, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("fsGroupPolicy", 5, K::Single(E::Scalar(S::String)), true),
        FieldDef::new(
            "tokenRequests",
            6,
            K::List(E::Message(&IO_K8S_API_STORAGE_V1_TOKENREQUEST)),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("requiresRepublish", 7, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("seLinuxMount", 8, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "nodeAllocatableUpdatePeriodSeconds",
            9,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_CSINODE: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.CSINode",
    proto: "k8s.io.api.storage.v1.CSINode",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "CSINode",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_STORAGE_V1_CSINODESPEC)),
            false,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_CSINODEDRIVER: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.CSINodeDriver",
    proto: "k8s.io.api.storage.v1.CSINodeDriver",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("nodeID", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("topologyKeys", 3, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new(
            "allocatable",
            4,
            K::Single(E::Message(&IO_K8S_API_STORAGE_V1_VOLUMENODERESOURCES)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_CSINODELIST: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.CSINodeList",
    proto: "k8s.io.api.storage.v1.CSINodeList",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "CSINodeList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_STORAGE_V1_CSINODE)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_CSINODESPEC: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.CSINodeSpec",
    proto: "k8s.io.api.storage.v1.CSINodeSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "drivers",
        1,
        K::List(E::Message(&IO_K8S_API_STORAGE_V1_CSINODEDRIVER)),
        false,
    )
    .patch(Some("merge"), Some("name"))
    .list(Some("map"), &["name"])
    .zero(Z::Null)],
};

pub(crate) static IO_K8S_API_STORAGE_V1_CSISTORAGECAPACITY: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.CSIStorageCapacity",
    proto: "k8s.io.api.storage.v1.CSIStorageCapacity",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "CSIStorageCapacity",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5, 6],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "nodeTopology",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
            )),
            true,
        ),
        FieldDef::new(
            "storageClassName",
            3,
            K::Single(E::Scalar(S::String)),
            false,
        )
        .zero(Z::String("")),
        FieldDef::new(
            "capacity",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
        FieldDef::new(
            "maximumVolumeSize",
            5,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_CSISTORAGECAPACITYLIST: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.CSIStorageCapacityList",
    proto: "k8s.io.api.storage.v1.CSIStorageCapacityList",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "CSIStorageCapacityList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_STORAGE_V1_CSISTORAGECAPACITY)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_STORAGECLASS: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.StorageClass",
    proto: "k8s.io.api.storage.v1.StorageClass",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "StorageClass",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5, 6, 7, 8, 9],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("provisioner", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("parameters", 3, K::Map(E::Scalar(S::String)), true),
        FieldDef::new("reclaimPolicy", 4, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("mountOptions", 5, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new(
            "allowVolumeExpansion",
            6,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
        FieldDef::new(
            "volumeBindingMode",
            7,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "allowedTopologies",
            8,
            K::List(E::Message(&IO_K8S_API_CORE_V1_TOPOLOGYSELECTORTERM)),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_STORAGECLASSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.StorageClassList",
    proto: "k8s.io.api.storage.v1.StorageClassList",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "StorageClassList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_STORAGE_V1_STORAGECLASS)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_TOKENREQUEST: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.TokenRequest",
    proto: "k8s.io.api.storage.v1.TokenRequest",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("audience", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("expirationSeconds", 2, K::Single(E::Scalar(S::Int64)), true),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENT: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.VolumeAttachment",
    proto: "k8s.io.api.storage.v1.VolumeAttachment",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "VolumeAttachment",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            2,
            K::Single(E::Message(&IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTSPEC)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            3,
            K::Single(E::Message(&IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTSTATUS)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTLIST: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.VolumeAttachmentList",
    proto: "k8s.io.api.storage.v1.VolumeAttachmentList",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1",
        kind: "VolumeAttachmentList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(&IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENT)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTSOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.VolumeAttachmentSource",
    proto: "k8s.io.api.storage.v1.VolumeAttachmentSource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "persistentVolumeName",
            1,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new(
            "inlineVolumeSpec",
            2,
            K::Single(E::Message(&IO_K8S_API_CORE_V1_PERSISTENTVOLUMESPEC)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTSPEC: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.VolumeAttachmentSpec",
    proto: "k8s.io.api.storage.v1.VolumeAttachmentSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("attacher", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "source",
            2,
            K::Single(E::Message(&IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTSOURCE)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("nodeName", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTSTATUS: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.VolumeAttachmentStatus",
    proto: "k8s.io.api.storage.v1.VolumeAttachmentStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("attached", 1, K::Single(E::Scalar(S::Bool)), false).zero(Z::False),
        FieldDef::new("attachmentMetadata", 2, K::Map(E::Scalar(S::String)), true),
        FieldDef::new(
            "attachError",
            3,
            K::Single(E::Message(&IO_K8S_API_STORAGE_V1_VOLUMEERROR)),
            true,
        ),
        FieldDef::new(
            "detachError",
            4,
            K::Single(E::Message(&IO_K8S_API_STORAGE_V1_VOLUMEERROR)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_VOLUMEERROR: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.VolumeError",
    proto: "k8s.io.api.storage.v1.VolumeError",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "time",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("message", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("errorCode", 3, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1_VOLUMENODERESOURCES: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1.VolumeNodeResources",
    proto: "k8s.io.api.storage.v1.VolumeNodeResources",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[FieldDef::new(
        "count",
        1,
        K::Single(E::Scalar(S::Int32)),
        true,
    )],
};

pub(crate) static IO_K8S_API_STORAGE_V1ALPHA1_VOLUMEATTRIBUTESCLASS: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1alpha1.VolumeAttributesClass",
    proto: "k8s.io.api.storage.v1alpha1.VolumeAttributesClass",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1alpha1",
        kind: "VolumeAttributesClass",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("driverName", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("parameters", 3, K::Map(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1ALPHA1_VOLUMEATTRIBUTESCLASSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1alpha1.VolumeAttributesClassList",
    proto: "k8s.io.api.storage.v1alpha1.VolumeAttributesClassList",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1alpha1",
        kind: "VolumeAttributesClassList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_STORAGE_V1ALPHA1_VOLUMEATTRIBUTESCLASS,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1BETA1_VOLUMEATTRIBUTESCLASS: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1beta1.VolumeAttributesClass",
    proto: "k8s.io.api.storage.v1beta1.VolumeAttributesClass",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1beta1",
        kind: "VolumeAttributesClass",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("driverName", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("parameters", 3, K::Map(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_API_STORAGE_V1BETA1_VOLUMEATTRIBUTESCLASSLIST: TypeDef = TypeDef {
    name: "io.k8s.api.storage.v1beta1.VolumeAttributesClassList",
    proto: "k8s.io.api.storage.v1beta1.VolumeAttributesClassList",
    gvk: Some(Gvk {
        group: "storage.k8s.io",
        version: "v1beta1",
        kind: "VolumeAttributesClassList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "items",
            2,
            K::List(E::Message(
                &IO_K8S_API_STORAGE_V1BETA1_VOLUMEATTRIBUTESCLASS,
            )),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_GROUPVERSIONRESOURCE: TypeDef = TypeDef {
    name: "io.k8s.api.storagemigration.v1alpha1.GroupVersionResource",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 2, 1],
    fields: &[
        FieldDef::new("group", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resource", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("version", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_MIGRATIONCONDITION: TypeDef = TypeDef {
    name: "io.k8s.api.storagemigration.v1alpha1.MigrationCondition",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[4, 3, 0, 2, 1],
    fields: &[
        FieldDef::new(
            "lastUpdateTime",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new("message", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("reason", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("status", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("type", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATION: TypeDef = TypeDef {
    name: "io.k8s.api.storagemigration.v1alpha1.StorageVersionMigration",
    proto: "",
    gvk: Some(Gvk {
        group: "storagemigration.k8s.io",
        version: "v1alpha1",
        kind: "StorageVersionMigration",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new(
            "spec",
            0,
            K::Single(E::Message(
                &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATIONSPEC,
            )),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "status",
            0,
            K::Single(E::Message(
                &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATIONSTATUS,
            )),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATIONLIST: TypeDef =
    TypeDef {
        name: "io.k8s.api.storagemigration.v1alpha1.StorageVersionMigrationList",
        proto: "",
        gvk: Some(Gvk {
            group: "storagemigration.k8s.io",
            version: "v1alpha1",
            kind: "StorageVersionMigrationList",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[],
    };

pub(crate) static IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATIONSPEC: TypeDef =
    TypeDef {
        name: "io.k8s.api.storagemigration.v1alpha1.StorageVersionMigrationSpec",
        proto: "",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0],
        fields: &[
            FieldDef::new("continueToken", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "resource",
                0,
                K::Single(E::Message(
                    &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_GROUPVERSIONRESOURCE,
                )),
                false,
            )
            .zero(Z::Object),
        ],
    };

pub(crate) static IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATIONSTATUS: TypeDef =
    TypeDef {
        name: "io.k8s.api.storagemigration.v1alpha1.StorageVersionMigrationStatus",
        proto: "",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new(
                "conditions",
                0,
                K::List(E::Message(
                    &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_MIGRATIONCONDITION,
                )),
                true,
            ),
            FieldDef::new("resourceVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        ],
    };

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCECOLUMNDEFINITION: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("type", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("format", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("description", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("priority", 5, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("jsonPath", 6, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCECONVERSION: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("strategy", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("webhook", 2, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_WEBHOOKCONVERSION)), true),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITION: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
    gvk: Some(Gvk { group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinition" }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("metadata", 1, K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)), false).zero(Z::Object),
        FieldDef::new("spec", 2, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONSPEC)), false).zero(Z::Object),
        FieldDef::new("status", 3, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONSTATUS)), true).zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONCONDITION: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("lastTransitionTime", 3, K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)), true).zero(Z::Null),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONLIST: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionList",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionList",
    gvk: Some(Gvk { group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinitionList" }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("metadata", 1, K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)), true).zero(Z::Object),
        FieldDef::new("items", 2, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITION)), false).zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONNAMES: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("plural", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("singular", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("shortNames", 3, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("kind", 4, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("listKind", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("categories", 6, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONSPEC: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("group", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("names", 3, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONNAMES)), false).zero(Z::Object),
        FieldDef::new("scope", 4, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("versions", 7, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONVERSION)), false).list(Some("atomic"), &[]).zero(Z::Null),
        FieldDef::new("conversion", 9, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCECONVERSION)), true),
        FieldDef::new("preserveUnknownFields", 10, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONSTATUS: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("conditions", 1, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONCONDITION)), true).list(Some("map"), &["type"]).zero(Z::Null),
        FieldDef::new("acceptedNames", 2, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONNAMES)), true).zero(Z::Object),
        FieldDef::new("storedVersions", 3, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]).zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONVERSION: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 6, 7, 3, 4, 5, 8],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("served", 2, K::Single(E::Scalar(S::Bool)), false).zero(Z::False),
        FieldDef::new("storage", 3, K::Single(E::Scalar(S::Bool)), false).zero(Z::False),
        FieldDef::new("schema", 4, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEVALIDATION)), true),
        FieldDef::new("subresources", 5, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCESUBRESOURCES)), true),
        FieldDef::new("additionalPrinterColumns", 6, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCECOLUMNDEFINITION)), true).list(Some("atomic"), &[]),
        FieldDef::new("deprecated", 7, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("deprecationWarning", 8, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("selectableFields", 9, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_SELECTABLEFIELD)), true).list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCESUBRESOURCESCALE: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("specReplicasPath", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("statusReplicasPath", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("labelSelectorPath", 3, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCESUBRESOURCESTATUS: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCESUBRESOURCES: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("status", 1, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCESUBRESOURCESTATUS)), true),
        FieldDef::new("scale", 2, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCESUBRESOURCESCALE)), true),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEVALIDATION: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("openAPIV3Schema", 1, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS)), true),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_EXTERNALDOCUMENTATION:
    TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("description", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("url", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSON: TypeDef =
    TypeDef {
        name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
        proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON",
        gvk: None,
        format: F::Json,
        struct_type: None,
        go_order: &[],
        fields: &[],
    };

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("id", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("$schema", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("$ref", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("description", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("type", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("format", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("title", 7, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("default", 8, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSON)), true),
        FieldDef::new("maximum", 9, K::Single(E::Scalar(S::Double)), true),
        FieldDef::new("exclusiveMaximum", 10, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("minimum", 11, K::Single(E::Scalar(S::Double)), true),
        FieldDef::new("exclusiveMinimum", 12, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("maxLength", 13, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("minLength", 14, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("pattern", 15, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("maxItems", 16, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("minItems", 17, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("uniqueItems", 18, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("multipleOf", 19, K::Single(E::Scalar(S::Double)), true),
        FieldDef::new("enum", 20, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSON)), true).list(Some("atomic"), &[]),
        FieldDef::new("maxProperties", 21, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("minProperties", 22, K::Single(E::Scalar(S::Int64)), true),
        FieldDef::new("required", 23, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("items", 24, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORARRAY)), true),
        FieldDef::new("allOf", 25, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS)), true).list(Some("atomic"), &[]),
        FieldDef::new("oneOf", 26, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS)), true).list(Some("atomic"), &[]),
        FieldDef::new("anyOf", 27, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS)), true).list(Some("atomic"), &[]),
        FieldDef::new("not", 28, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS)), true),
        FieldDef::new("properties", 29, K::Map(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS)), true),
        FieldDef::new("additionalProperties", 30, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORBOOL)), true),
        FieldDef::new("patternProperties", 31, K::Map(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS)), true),
        FieldDef::new("dependencies", 32, K::Map(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORSTRINGARRAY)), true),
        FieldDef::new("additionalItems", 33, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORBOOL)), true),
        FieldDef::new("definitions", 34, K::Map(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS)), true),
        FieldDef::new("externalDocs", 35, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_EXTERNALDOCUMENTATION)), true),
        FieldDef::new("example", 36, K::Single(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSON)), true),
        FieldDef::new("nullable", 37, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("x-kubernetes-preserve-unknown-fields", 38, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("x-kubernetes-embedded-resource", 39, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("x-kubernetes-int-or-string", 40, K::Single(E::Scalar(S::Bool)), true).omits_zero(),
        FieldDef::new("x-kubernetes-list-map-keys", 41, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new("x-kubernetes-list-type", 42, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("x-kubernetes-map-type", 43, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("x-kubernetes-validations", 44, K::List(E::Message(&IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_VALIDATIONRULE)), true).patch(Some("merge"), Some("rule")).list(Some("map"), &["rule"]),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORARRAY: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray",
    gvk: None,
    format: F::JsonSchemaPropsOrArray,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORBOOL:
    TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
    gvk: None,
    format: F::JsonSchemaPropsOrBool,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORSTRINGARRAY: TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
    gvk: None,
    format: F::JsonSchemaPropsOrStringArray,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_SELECTABLEFIELD:
    TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.SelectableField",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.SelectableField",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("jsonPath", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_SERVICEREFERENCE:
    TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ServiceReference",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("namespace", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("path", 3, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("port", 4, K::Single(E::Scalar(S::Int32)), true),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_VALIDATIONRULE: TypeDef =
    TypeDef {
        name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule",
        proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ValidationRule",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("rule", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
            FieldDef::new("message", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "messageExpression",
                3,
                K::Single(E::Scalar(S::String)),
                true,
            )
            .omits_zero(),
            FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true),
            FieldDef::new("fieldPath", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("optionalOldSelf", 6, K::Single(E::Scalar(S::Bool)), true),
        ],
    };

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_WEBHOOKCLIENTCONFIG:
    TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[2, 0, 1],
    fields: &[
        FieldDef::new(
            "service",
            1,
            K::Single(E::Message(
                &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_SERVICEREFERENCE,
            )),
            true,
        ),
        FieldDef::new("caBundle", 2, K::Single(E::Scalar(S::Bytes)), true),
        FieldDef::new("url", 3, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_WEBHOOKCONVERSION:
    TypeDef = TypeDef {
    name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookConversion",
    proto: "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.WebhookConversion",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "clientConfig",
            2,
            K::Single(E::Message(
                &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_WEBHOOKCLIENTCONFIG,
            )),
            true,
        ),
        FieldDef::new(
            "conversionReviewVersions",
            3,
            K::List(E::Scalar(S::String)),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.api.resource.Quantity",
    proto: "k8s.io.apimachinery.pkg.api.resource.Quantity",
    gvk: None,
    format: F::Quantity,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIGROUP: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.APIGroup",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "APIGroup",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "versions",
            2,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_GROUPVERSIONFORDISCOVERY,
            )),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
        FieldDef::new(
            "preferredVersion",
            3,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_GROUPVERSIONFORDISCOVERY,
            )),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "serverAddressByClientCIDRs",
            4,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_SERVERADDRESSBYCLIENTCIDR,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIGROUPLIST: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.APIGroupList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "APIGroupList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "groups",
            1,
            K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIGROUP)),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIRESOURCE: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIResource",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.APIResource",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 5, 1, 7, 8, 2, 3, 4, 6, 9],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("namespaced", 2, K::Single(E::Scalar(S::Bool)), false).zero(Z::False),
        FieldDef::new("kind", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("verbs", 4, K::Single(E::StringList), false).zero(Z::Null),
        FieldDef::new("shortNames", 5, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("singularName", 6, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("categories", 7, K::List(E::Scalar(S::String)), true)
            .list(Some("atomic"), &[]),
        FieldDef::new("group", 8, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("version", 9, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "storageVersionHash",
            10,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIRESOURCELIST: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.APIResourceList",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "APIResourceList",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("groupVersion", 1, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new(
            "resources",
            2,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIRESOURCE,
            )),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIVERSIONS: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.APIVersions",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "APIVersions",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("versions", 1, K::List(E::Scalar(S::String)), false)
            .list(Some("atomic"), &[])
            .zero(Z::Null),
        FieldDef::new(
            "serverAddressByClientCIDRs",
            2,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_SERVERADDRESSBYCLIENTCIDR,
            )),
            false,
        )
        .list(Some("atomic"), &[])
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.Condition",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "observedGeneration",
            3,
            K::Single(E::Scalar(S::Int64)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "lastTransitionTime",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            false,
        )
        .zero(Z::Null),
        FieldDef::new("reason", 5, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("message", 6, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_DELETEOPTIONS: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5, 6, 7],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "gracePeriodSeconds",
            1,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
        FieldDef::new(
            "preconditions",
            2,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PRECONDITIONS,
            )),
            true,
        ),
        FieldDef::new("orphanDependents", 3, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new(
            "propagationPolicy",
            4,
            K::Single(E::Scalar(S::String)),
            true,
        ),
        FieldDef::new("dryRun", 5, K::List(E::Scalar(S::String)), true).list(Some("atomic"), &[]),
        FieldDef::new(
            "ignoreStoreReadErrorWithClusterBreakingPotential",
            6,
            K::Single(E::Scalar(S::Bool)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_FIELDSELECTORREQUIREMENT: TypeDef =
    TypeDef {
        name: "io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement",
        proto: "k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
            FieldDef::new("operator", 2, K::Single(E::Scalar(S::String)), false)
                .zero(Z::String("")),
            FieldDef::new("values", 3, K::List(E::Scalar(S::String)), true)
                .list(Some("atomic"), &[]),
        ],
    };

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_FIELDSV1: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1",
    gvk: None,
    format: F::FieldsV1,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_GROUPVERSIONFORDISCOVERY: TypeDef =
    TypeDef {
        name: "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery",
        proto: "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("groupVersion", 1, K::Single(E::Scalar(S::String)), false)
                .zero(Z::String("")),
            FieldDef::new("version", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        ],
    };

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_GROUPVERSIONKIND: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionKind",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionKind",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("group", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("version", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("kind", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[],
    fields: &[
        FieldDef::new("matchLabels", 1, K::Map(E::Scalar(S::String)), true),
        FieldDef::new(
            "matchExpressions",
            2,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTORREQUIREMENT,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTORREQUIREMENT: TypeDef =
    TypeDef {
        name: "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
        proto: "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("key", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
            FieldDef::new("operator", 2, K::Single(E::Scalar(S::String)), false)
                .zero(Z::String("")),
            FieldDef::new("values", 3, K::List(E::Scalar(S::String)), true)
                .list(Some("atomic"), &[]),
        ],
    };

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("selfLink", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resourceVersion", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("continue", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "remainingItemCount",
            4,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MANAGEDFIELDSENTRY: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("manager", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("operation", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("apiVersion", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "time",
            4,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
        FieldDef::new("fieldsType", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "fieldsV1",
            7,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_FIELDSV1)),
            true,
        ),
        FieldDef::new("subresource", 8, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime",
    gvk: None,
    format: F::MicroTime,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("generateName", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("namespace", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("selfLink", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("uid", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("resourceVersion", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("generation", 7, K::Single(E::Scalar(S::Int64)), true).omits_zero(),
        FieldDef::new(
            "creationTimestamp",
            8,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        )
        .zero(Z::Null),
        FieldDef::new(
            "deletionTimestamp",
            9,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
            true,
        ),
        FieldDef::new(
            "deletionGracePeriodSeconds",
            10,
            K::Single(E::Scalar(S::Int64)),
            true,
        ),
        FieldDef::new("labels", 11, K::Map(E::Scalar(S::String)), true),
        FieldDef::new("annotations", 12, K::Map(E::Scalar(S::String)), true),
        FieldDef::new(
            "ownerReferences",
            13,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OWNERREFERENCE,
            )),
            true,
        )
        .patch(Some("merge"), Some("uid"))
        .list(Some("map"), &["uid"]),
        FieldDef::new("finalizers", 14, K::List(E::Scalar(S::String)), true)
            .patch(Some("merge"), None)
            .list(Some("set"), &[]),
        FieldDef::new(
            "managedFields",
            17,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MANAGEDFIELDSENTRY,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OWNERREFERENCE: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference",
    gvk: None,
    format: F::Object,
    struct_type: Some("atomic"),
    go_order: &[3, 0, 1, 2, 4, 5],
    fields: &[
        FieldDef::new("kind", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("name", 3, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("uid", 4, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("apiVersion", 5, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("controller", 6, K::Single(E::Scalar(S::Bool)), true),
        FieldDef::new("blockOwnerDeletion", 7, K::Single(E::Scalar(S::Bool)), true),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PARTIALOBJECTMETADATA: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata",
    gvk: Some(Gvk {
        group: "meta.k8s.io",
        version: "v1",
        kind: "PartialObjectMetadata",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
            true,
        )
        .zero(Z::Object),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PARTIALOBJECTMETADATALIST: TypeDef =
    TypeDef {
        name: "io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList",
        proto: "k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList",
        gvk: Some(Gvk {
            group: "meta.k8s.io",
            version: "v1",
            kind: "PartialObjectMetadataList",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "items",
                2,
                K::List(E::Message(
                    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PARTIALOBJECTMETADATA,
                )),
                false,
            )
            .zero(Z::Null),
        ],
    };

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PATCH: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.Patch",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PRECONDITIONS: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.Preconditions",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("uid", 1, K::Single(E::Scalar(S::String)), true),
        FieldDef::new("resourceVersion", 2, K::Single(E::Scalar(S::String)), true),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_SERVERADDRESSBYCLIENTCIDR: TypeDef =
    TypeDef {
        name: "io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR",
        proto: "k8s.io.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("clientCIDR", 1, K::Single(E::Scalar(S::String)), false)
                .zero(Z::String("")),
            FieldDef::new("serverAddress", 2, K::Single(E::Scalar(S::String)), false)
                .zero(Z::String("")),
        ],
    };

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_STATUS: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
    gvk: Some(Gvk {
        group: "",
        version: "v1",
        kind: "Status",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4, 5, 6, 7],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            1,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            false,
        )
        .zero(Z::Object),
        FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "details",
            5,
            K::Single(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_STATUSDETAILS,
            )),
            true,
        ),
        FieldDef::new("code", 6, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_STATUSCAUSE: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.StatusCause",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("reason", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("field", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_STATUSDETAILS: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.StatusDetails",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[0, 1, 2, 5, 3, 4],
    fields: &[
        FieldDef::new("name", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("group", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "causes",
            4,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_STATUSCAUSE,
            )),
            true,
        )
        .list(Some("atomic"), &[]),
        FieldDef::new("retryAfterSeconds", 5, K::Single(E::Scalar(S::Int32)), true).omits_zero(),
        FieldDef::new("uid", 6, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLE: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.Table",
    proto: "",
    gvk: Some(Gvk {
        group: "meta.k8s.io",
        version: "v1",
        kind: "Table",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2, 3, 4],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new(
            "metadata",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
            true,
        )
        .zero(Z::Object),
        FieldDef::new(
            "columnDefinitions",
            0,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLECOLUMNDEFINITION,
            )),
            false,
        )
        .zero(Z::Null),
        FieldDef::new(
            "rows",
            0,
            K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLEROW)),
            false,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLECOLUMNDEFINITION: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.TableColumnDefinition",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("name", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("type", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("format", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("description", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("priority", 0, K::Single(E::Scalar(S::Int32)), false).zero(Z::Number),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLEOPTIONS: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.TableOptions",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.TableOptions",
    gvk: Some(Gvk {
        group: "meta.k8s.io",
        version: "v1",
        kind: "TableOptions",
    }),
    format: F::Object,
    struct_type: None,
    go_order: &[1, 0, 2],
    fields: &[
        FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("includeObject", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLEROW: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.TableRow",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new(
            "cells",
            0,
            K::List(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            false,
        )
        .zero(Z::Null),
        FieldDef::new(
            "conditions",
            0,
            K::List(E::Message(
                &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLEROWCONDITION,
            )),
            true,
        ),
        FieldDef::new(
            "object",
            0,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            true,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLEROWCONDITION: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.TableRowCondition",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("status", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("reason", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("message", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.Time",
    gvk: None,
    format: F::Time,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_APIS_META_V1_WATCHEVENT: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent",
    proto: "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[],
    fields: &[
        FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), true).zero(Z::String("")),
        FieldDef::new(
            "object",
            2,
            K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION)),
            true,
        )
        .zero(Z::Null),
    ],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.runtime.RawExtension",
    proto: "k8s.io.apimachinery.pkg.runtime.RawExtension",
    gvk: None,
    format: F::RawExtension,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
    proto: "k8s.io.apimachinery.pkg.util.intstr.IntOrString",
    gvk: None,
    format: F::IntOrString,
    struct_type: None,
    go_order: &[],
    fields: &[],
};

pub(crate) static IO_K8S_APIMACHINERY_PKG_VERSION_INFO: TypeDef = TypeDef {
    name: "io.k8s.apimachinery.pkg.version.Info",
    proto: "",
    gvk: None,
    format: F::Object,
    struct_type: None,
    go_order: &[8, 11, 2, 3, 9, 10, 6, 4, 5, 0, 7, 1, 12],
    fields: &[
        FieldDef::new("buildDate", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("compiler", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("emulationMajor", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("emulationMinor", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
        FieldDef::new("gitCommit", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("gitTreeState", 0, K::Single(E::Scalar(S::String)), false)
            .zero(Z::String("")),
        FieldDef::new("gitVersion", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("goVersion", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("major", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new(
            "minCompatibilityMajor",
            0,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new(
            "minCompatibilityMinor",
            0,
            K::Single(E::Scalar(S::String)),
            true,
        )
        .omits_zero(),
        FieldDef::new("minor", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
        FieldDef::new("platform", 0, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
    ],
};

pub(crate) static IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICE: TypeDef =
    TypeDef {
        name: "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService",
        proto: "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.APIService",
        gvk: Some(Gvk {
            group: "apiregistration.k8s.io",
            version: "v1",
            kind: "APIService",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3, 4],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA)),
                false,
            )
            .zero(Z::Object),
            FieldDef::new(
                "spec",
                2,
                K::Single(E::Message(
                    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICESPEC,
                )),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "status",
                3,
                K::Single(E::Message(
                    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICESTATUS,
                )),
                true,
            )
            .zero(Z::Object),
        ],
    };

pub(crate) static IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICECONDITION: TypeDef =
    TypeDef {
        name: "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceCondition",
        proto: "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.APIServiceCondition",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("type", 1, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
            FieldDef::new("status", 2, K::Single(E::Scalar(S::String)), false).zero(Z::String("")),
            FieldDef::new(
                "lastTransitionTime",
                3,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME)),
                true,
            )
            .zero(Z::Null),
            FieldDef::new("reason", 4, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("message", 5, K::Single(E::Scalar(S::String)), true).omits_zero(),
        ],
    };

pub(crate) static IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICELIST: TypeDef =
    TypeDef {
        name: "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceList",
        proto: "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.APIServiceList",
        gvk: Some(Gvk {
            group: "apiregistration.k8s.io",
            version: "v1",
            kind: "APIServiceList",
        }),
        format: F::Object,
        struct_type: None,
        go_order: &[1, 0, 2, 3],
        fields: &[
            FieldDef::new("apiVersion", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("kind", 0, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "metadata",
                1,
                K::Single(E::Message(&IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA)),
                true,
            )
            .zero(Z::Object),
            FieldDef::new(
                "items",
                2,
                K::List(E::Message(
                    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICE,
                )),
                false,
            )
            .zero(Z::Null),
        ],
    };

pub(crate) static IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICESPEC: TypeDef =
    TypeDef {
        name: "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec",
        proto: "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.APIServiceSpec",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new(
                "service",
                1,
                K::Single(E::Message(
                    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_SERVICEREFERENCE,
                )),
                true,
            ),
            FieldDef::new("group", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("version", 3, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new(
                "insecureSkipTLSVerify",
                4,
                K::Single(E::Scalar(S::Bool)),
                true,
            )
            .omits_zero(),
            FieldDef::new("caBundle", 5, K::Single(E::Scalar(S::Bytes)), true)
                .list(Some("atomic"), &[]),
            FieldDef::new(
                "groupPriorityMinimum",
                7,
                K::Single(E::Scalar(S::Int32)),
                false,
            )
            .zero(Z::Number),
            FieldDef::new("versionPriority", 8, K::Single(E::Scalar(S::Int32)), false)
                .zero(Z::Number),
        ],
    };

pub(crate) static IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICESTATUS: TypeDef =
    TypeDef {
        name: "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus",
        proto: "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.APIServiceStatus",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[FieldDef::new(
            "conditions",
            1,
            K::List(E::Message(
                &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICECONDITION,
            )),
            true,
        )
        .patch(Some("merge"), Some("type"))
        .list(Some("map"), &["type"])],
    };

pub(crate) static IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_SERVICEREFERENCE: TypeDef =
    TypeDef {
        name: "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference",
        proto: "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.ServiceReference",
        gvk: None,
        format: F::Object,
        struct_type: None,
        go_order: &[],
        fields: &[
            FieldDef::new("namespace", 1, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("name", 2, K::Single(E::Scalar(S::String)), true).omits_zero(),
            FieldDef::new("port", 3, K::Single(E::Scalar(S::Int32)), true),
        ],
    };

pub(crate) static TYPES: [&TypeDef; 730] = [
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_AUDITANNOTATION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_EXPRESSIONWARNING,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_MATCHCONDITION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_MATCHRESOURCES,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOK,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOKCONFIGURATION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOKCONFIGURATIONLIST,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_NAMEDRULEWITHOPERATIONS,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_PARAMKIND,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_PARAMREF,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_RULE,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_RULEWITHOPERATIONS,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_SERVICEREFERENCE,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_TYPECHECKING,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICY,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDING,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDINGLIST,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDINGSPEC,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYLIST,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYSPEC,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYSTATUS,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOK,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOKCONFIGURATION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOKCONFIGURATIONLIST,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_VARIABLE,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1_WEBHOOKCLIENTCONFIG,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_APPLYCONFIGURATION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_JSONPATCH,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MATCHCONDITION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MATCHRESOURCES,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICY,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDING,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDINGLIST,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDINGSPEC,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYLIST,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYSPEC,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_NAMEDRULEWITHOPERATIONS,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_PARAMKIND,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_PARAMREF,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_VARIABLE,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_AUDITANNOTATION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_EXPRESSIONWARNING,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_MATCHCONDITION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_MATCHRESOURCES,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_NAMEDRULEWITHOPERATIONS,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_PARAMKIND,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_PARAMREF,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_TYPECHECKING,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICY,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDING,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDINGLIST,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDINGSPEC,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYLIST,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYSPEC,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYSTATUS,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATION,
    &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VARIABLE,
    &IO_K8S_API_APIDISCOVERY_V2_APIGROUPDISCOVERY,
    &IO_K8S_API_APIDISCOVERY_V2_APIGROUPDISCOVERYLIST,
    &IO_K8S_API_APIDISCOVERY_V2_APIRESOURCEDISCOVERY,
    &IO_K8S_API_APIDISCOVERY_V2_APISUBRESOURCEDISCOVERY,
    &IO_K8S_API_APIDISCOVERY_V2_APIVERSIONDISCOVERY,
    &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_SERVERSTORAGEVERSION,
    &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSION,
    &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONCONDITION,
    &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONLIST,
    &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONSPEC,
    &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONSTATUS,
    &IO_K8S_API_APPS_V1_CONTROLLERREVISION,
    &IO_K8S_API_APPS_V1_CONTROLLERREVISIONLIST,
    &IO_K8S_API_APPS_V1_DAEMONSET,
    &IO_K8S_API_APPS_V1_DAEMONSETCONDITION,
    &IO_K8S_API_APPS_V1_DAEMONSETLIST,
    &IO_K8S_API_APPS_V1_DAEMONSETSPEC,
    &IO_K8S_API_APPS_V1_DAEMONSETSTATUS,
    &IO_K8S_API_APPS_V1_DAEMONSETUPDATESTRATEGY,
    &IO_K8S_API_APPS_V1_DEPLOYMENT,
    &IO_K8S_API_APPS_V1_DEPLOYMENTCONDITION,
    &IO_K8S_API_APPS_V1_DEPLOYMENTLIST,
    &IO_K8S_API_APPS_V1_DEPLOYMENTSPEC,
    &IO_K8S_API_APPS_V1_DEPLOYMENTSTATUS,
    &IO_K8S_API_APPS_V1_DEPLOYMENTSTRATEGY,
    &IO_K8S_API_APPS_V1_REPLICASET,
    &IO_K8S_API_APPS_V1_REPLICASETCONDITION,
    &IO_K8S_API_APPS_V1_REPLICASETLIST,
    &IO_K8S_API_APPS_V1_REPLICASETSPEC,
    &IO_K8S_API_APPS_V1_REPLICASETSTATUS,
    &IO_K8S_API_APPS_V1_ROLLINGUPDATEDAEMONSET,
    &IO_K8S_API_APPS_V1_ROLLINGUPDATEDEPLOYMENT,
    &IO_K8S_API_APPS_V1_ROLLINGUPDATESTATEFULSETSTRATEGY,
    &IO_K8S_API_APPS_V1_STATEFULSET,
    &IO_K8S_API_APPS_V1_STATEFULSETCONDITION,
    &IO_K8S_API_APPS_V1_STATEFULSETLIST,
    &IO_K8S_API_APPS_V1_STATEFULSETORDINALS,
    &IO_K8S_API_APPS_V1_STATEFULSETPERSISTENTVOLUMECLAIMRETENTIONPOLICY,
    &IO_K8S_API_APPS_V1_STATEFULSETSPEC,
    &IO_K8S_API_APPS_V1_STATEFULSETSTATUS,
    &IO_K8S_API_APPS_V1_STATEFULSETUPDATESTRATEGY,
    &IO_K8S_API_AUTHENTICATION_V1_BOUNDOBJECTREFERENCE,
    &IO_K8S_API_AUTHENTICATION_V1_SELFSUBJECTREVIEW,
    &IO_K8S_API_AUTHENTICATION_V1_SELFSUBJECTREVIEWSTATUS,
    &IO_K8S_API_AUTHENTICATION_V1_TOKENREQUEST,
    &IO_K8S_API_AUTHENTICATION_V1_TOKENREQUESTSPEC,
    &IO_K8S_API_AUTHENTICATION_V1_TOKENREQUESTSTATUS,
    &IO_K8S_API_AUTHENTICATION_V1_TOKENREVIEW,
    &IO_K8S_API_AUTHENTICATION_V1_TOKENREVIEWSPEC,
    &IO_K8S_API_AUTHENTICATION_V1_TOKENREVIEWSTATUS,
    &IO_K8S_API_AUTHENTICATION_V1_USERINFO,
    &IO_K8S_API_AUTHORIZATION_V1_FIELDSELECTORATTRIBUTES,
    &IO_K8S_API_AUTHORIZATION_V1_LABELSELECTORATTRIBUTES,
    &IO_K8S_API_AUTHORIZATION_V1_LOCALSUBJECTACCESSREVIEW,
    &IO_K8S_API_AUTHORIZATION_V1_NONRESOURCEATTRIBUTES,
    &IO_K8S_API_AUTHORIZATION_V1_NONRESOURCERULE,
    &IO_K8S_API_AUTHORIZATION_V1_RESOURCEATTRIBUTES,
    &IO_K8S_API_AUTHORIZATION_V1_RESOURCERULE,
    &IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTACCESSREVIEW,
    &IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTACCESSREVIEWSPEC,
    &IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTRULESREVIEW,
    &IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTRULESREVIEWSPEC,
    &IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEW,
    &IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEWSPEC,
    &IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEWSTATUS,
    &IO_K8S_API_AUTHORIZATION_V1_SUBJECTRULESREVIEWSTATUS,
    &IO_K8S_API_AUTOSCALING_V1_CROSSVERSIONOBJECTREFERENCE,
    &IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALER,
    &IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALERLIST,
    &IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALERSPEC,
    &IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALERSTATUS,
    &IO_K8S_API_AUTOSCALING_V1_SCALE,
    &IO_K8S_API_AUTOSCALING_V1_SCALESPEC,
    &IO_K8S_API_AUTOSCALING_V1_SCALESTATUS,
    &IO_K8S_API_AUTOSCALING_V2_CONTAINERRESOURCEMETRICSOURCE,
    &IO_K8S_API_AUTOSCALING_V2_CONTAINERRESOURCEMETRICSTATUS,
    &IO_K8S_API_AUTOSCALING_V2_CROSSVERSIONOBJECTREFERENCE,
    &IO_K8S_API_AUTOSCALING_V2_EXTERNALMETRICSOURCE,
    &IO_K8S_API_AUTOSCALING_V2_EXTERNALMETRICSTATUS,
    &IO_K8S_API_AUTOSCALING_V2_HPASCALINGPOLICY,
    &IO_K8S_API_AUTOSCALING_V2_HPASCALINGRULES,
    &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALER,
    &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERBEHAVIOR,
    &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERCONDITION,
    &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERLIST,
    &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERSPEC,
    &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERSTATUS,
    &IO_K8S_API_AUTOSCALING_V2_METRICIDENTIFIER,
    &IO_K8S_API_AUTOSCALING_V2_METRICSPEC,
    &IO_K8S_API_AUTOSCALING_V2_METRICSTATUS,
    &IO_K8S_API_AUTOSCALING_V2_METRICTARGET,
    &IO_K8S_API_AUTOSCALING_V2_METRICVALUESTATUS,
    &IO_K8S_API_AUTOSCALING_V2_OBJECTMETRICSOURCE,
    &IO_K8S_API_AUTOSCALING_V2_OBJECTMETRICSTATUS,
    &IO_K8S_API_AUTOSCALING_V2_PODSMETRICSOURCE,
    &IO_K8S_API_AUTOSCALING_V2_PODSMETRICSTATUS,
    &IO_K8S_API_AUTOSCALING_V2_RESOURCEMETRICSOURCE,
    &IO_K8S_API_AUTOSCALING_V2_RESOURCEMETRICSTATUS,
    &IO_K8S_API_BATCH_V1_CRONJOB,
    &IO_K8S_API_BATCH_V1_CRONJOBLIST,
    &IO_K8S_API_BATCH_V1_CRONJOBSPEC,
    &IO_K8S_API_BATCH_V1_CRONJOBSTATUS,
    &IO_K8S_API_BATCH_V1_JOB,
    &IO_K8S_API_BATCH_V1_JOBCONDITION,
    &IO_K8S_API_BATCH_V1_JOBLIST,
    &IO_K8S_API_BATCH_V1_JOBSPEC,
    &IO_K8S_API_BATCH_V1_JOBSTATUS,
    &IO_K8S_API_BATCH_V1_JOBTEMPLATESPEC,
    &IO_K8S_API_BATCH_V1_PODFAILUREPOLICY,
    &IO_K8S_API_BATCH_V1_PODFAILUREPOLICYONEXITCODESREQUIREMENT,
    &IO_K8S_API_BATCH_V1_PODFAILUREPOLICYONPODCONDITIONSPATTERN,
    &IO_K8S_API_BATCH_V1_PODFAILUREPOLICYRULE,
    &IO_K8S_API_BATCH_V1_SUCCESSPOLICY,
    &IO_K8S_API_BATCH_V1_SUCCESSPOLICYRULE,
    &IO_K8S_API_BATCH_V1_UNCOUNTEDTERMINATEDPODS,
    &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUEST,
    &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTCONDITION,
    &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTLIST,
    &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTSPEC,
    &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTSTATUS,
    &IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLE,
    &IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLELIST,
    &IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLESPEC,
    &IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLE,
    &IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLELIST,
    &IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLESPEC,
    &IO_K8S_API_COORDINATION_V1_LEASE,
    &IO_K8S_API_COORDINATION_V1_LEASELIST,
    &IO_K8S_API_COORDINATION_V1_LEASESPEC,
    &IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATE,
    &IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATELIST,
    &IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATESPEC,
    &IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATE,
    &IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATELIST,
    &IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATESPEC,
    &IO_K8S_API_CORE_V1_AWSELASTICBLOCKSTOREVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_AFFINITY,
    &IO_K8S_API_CORE_V1_APPARMORPROFILE,
    &IO_K8S_API_CORE_V1_ATTACHEDVOLUME,
    &IO_K8S_API_CORE_V1_AZUREDISKVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_AZUREFILEPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_AZUREFILEVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_BINDING,
    &IO_K8S_API_CORE_V1_CSIPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_CSIVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_CAPABILITIES,
    &IO_K8S_API_CORE_V1_CEPHFSPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_CEPHFSVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_CINDERPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_CINDERVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_CLIENTIPCONFIG,
    &IO_K8S_API_CORE_V1_CLUSTERTRUSTBUNDLEPROJECTION,
    &IO_K8S_API_CORE_V1_COMPONENTCONDITION,
    &IO_K8S_API_CORE_V1_COMPONENTSTATUS,
    &IO_K8S_API_CORE_V1_COMPONENTSTATUSLIST,
    &IO_K8S_API_CORE_V1_CONFIGMAP,
    &IO_K8S_API_CORE_V1_CONFIGMAPENVSOURCE,
    &IO_K8S_API_CORE_V1_CONFIGMAPKEYSELECTOR,
    &IO_K8S_API_CORE_V1_CONFIGMAPLIST,
    &IO_K8S_API_CORE_V1_CONFIGMAPNODECONFIGSOURCE,
    &IO_K8S_API_CORE_V1_CONFIGMAPPROJECTION,
    &IO_K8S_API_CORE_V1_CONFIGMAPVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_CONTAINER,
    &IO_K8S_API_CORE_V1_CONTAINERIMAGE,
    &IO_K8S_API_CORE_V1_CONTAINERPORT,
    &IO_K8S_API_CORE_V1_CONTAINERRESIZEPOLICY,
    &IO_K8S_API_CORE_V1_CONTAINERRESTARTRULE,
    &IO_K8S_API_CORE_V1_CONTAINERRESTARTRULEONEXITCODES,
    &IO_K8S_API_CORE_V1_CONTAINERSTATE,
    &IO_K8S_API_CORE_V1_CONTAINERSTATERUNNING,
    &IO_K8S_API_CORE_V1_CONTAINERSTATETERMINATED,
    &IO_K8S_API_CORE_V1_CONTAINERSTATEWAITING,
    &IO_K8S_API_CORE_V1_CONTAINERSTATUS,
    &IO_K8S_API_CORE_V1_CONTAINERUSER,
    &IO_K8S_API_CORE_V1_DAEMONENDPOINT,
    &IO_K8S_API_CORE_V1_DOWNWARDAPIPROJECTION,
    &IO_K8S_API_CORE_V1_DOWNWARDAPIVOLUMEFILE,
    &IO_K8S_API_CORE_V1_DOWNWARDAPIVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_EMPTYDIRVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_ENDPOINTADDRESS,
    &IO_K8S_API_CORE_V1_ENDPOINTPORT,
    &IO_K8S_API_CORE_V1_ENDPOINTSUBSET,
    &IO_K8S_API_CORE_V1_ENDPOINTS,
    &IO_K8S_API_CORE_V1_ENDPOINTSLIST,
    &IO_K8S_API_CORE_V1_ENVFROMSOURCE,
    &IO_K8S_API_CORE_V1_ENVVAR,
    &IO_K8S_API_CORE_V1_ENVVARSOURCE,
    &IO_K8S_API_CORE_V1_EPHEMERALCONTAINER,
    &IO_K8S_API_CORE_V1_EPHEMERALCONTAINERCOMMON,
    &IO_K8S_API_CORE_V1_EPHEMERALVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_EVENT,
    &IO_K8S_API_CORE_V1_EVENTLIST,
    &IO_K8S_API_CORE_V1_EVENTSERIES,
    &IO_K8S_API_CORE_V1_EVENTSOURCE,
    &IO_K8S_API_CORE_V1_EXECACTION,
    &IO_K8S_API_CORE_V1_FCVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_FLEXPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_FLEXVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_FLOCKERVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_GCEPERSISTENTDISKVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_GRPCACTION,
    &IO_K8S_API_CORE_V1_GITREPOVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_GLUSTERFSPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_GLUSTERFSVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_HTTPGETACTION,
    &IO_K8S_API_CORE_V1_HTTPHEADER,
    &IO_K8S_API_CORE_V1_HOSTALIAS,
    &IO_K8S_API_CORE_V1_HOSTIP,
    &IO_K8S_API_CORE_V1_HOSTPATHVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_ISCSIPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_ISCSIVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_IMAGEVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_KEYTOPATH,
    &IO_K8S_API_CORE_V1_LIFECYCLE,
    &IO_K8S_API_CORE_V1_LIFECYCLEHANDLER,
    &IO_K8S_API_CORE_V1_LIMITRANGE,
    &IO_K8S_API_CORE_V1_LIMITRANGEITEM,
    &IO_K8S_API_CORE_V1_LIMITRANGELIST,
    &IO_K8S_API_CORE_V1_LIMITRANGESPEC,
    &IO_K8S_API_CORE_V1_LINUXCONTAINERUSER,
    &IO_K8S_API_CORE_V1_LOADBALANCERINGRESS,
    &IO_K8S_API_CORE_V1_LOADBALANCERSTATUS,
    &IO_K8S_API_CORE_V1_LOCALOBJECTREFERENCE,
    &IO_K8S_API_CORE_V1_LOCALVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_MODIFYVOLUMESTATUS,
    &IO_K8S_API_CORE_V1_NFSVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_NAMESPACE,
    &IO_K8S_API_CORE_V1_NAMESPACECONDITION,
    &IO_K8S_API_CORE_V1_NAMESPACELIST,
    &IO_K8S_API_CORE_V1_NAMESPACESPEC,
    &IO_K8S_API_CORE_V1_NAMESPACESTATUS,
    &IO_K8S_API_CORE_V1_NODE,
    &IO_K8S_API_CORE_V1_NODEADDRESS,
    &IO_K8S_API_CORE_V1_NODEAFFINITY,
    &IO_K8S_API_CORE_V1_NODECONDITION,
    &IO_K8S_API_CORE_V1_NODECONFIGSOURCE,
    &IO_K8S_API_CORE_V1_NODECONFIGSTATUS,
    &IO_K8S_API_CORE_V1_NODEDAEMONENDPOINTS,
    &IO_K8S_API_CORE_V1_NODEFEATURES,
    &IO_K8S_API_CORE_V1_NODELIST,
    &IO_K8S_API_CORE_V1_NODERUNTIMEHANDLER,
    &IO_K8S_API_CORE_V1_NODERUNTIMEHANDLERFEATURES,
    &IO_K8S_API_CORE_V1_NODESELECTOR,
    &IO_K8S_API_CORE_V1_NODESELECTORREQUIREMENT,
    &IO_K8S_API_CORE_V1_NODESELECTORTERM,
    &IO_K8S_API_CORE_V1_NODESPEC,
    &IO_K8S_API_CORE_V1_NODESTATUS,
    &IO_K8S_API_CORE_V1_NODESWAPSTATUS,
    &IO_K8S_API_CORE_V1_NODESYSTEMINFO,
    &IO_K8S_API_CORE_V1_OBJECTFIELDSELECTOR,
    &IO_K8S_API_CORE_V1_OBJECTREFERENCE,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUME,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIM,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMCONDITION,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMLIST,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMSPEC,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMSTATUS,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMTEMPLATE,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMELIST,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMESPEC,
    &IO_K8S_API_CORE_V1_PERSISTENTVOLUMESTATUS,
    &IO_K8S_API_CORE_V1_PHOTONPERSISTENTDISKVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_POD,
    &IO_K8S_API_CORE_V1_PODAFFINITY,
    &IO_K8S_API_CORE_V1_PODAFFINITYTERM,
    &IO_K8S_API_CORE_V1_PODANTIAFFINITY,
    &IO_K8S_API_CORE_V1_PODCONDITION,
    &IO_K8S_API_CORE_V1_PODDNSCONFIG,
    &IO_K8S_API_CORE_V1_PODDNSCONFIGOPTION,
    &IO_K8S_API_CORE_V1_PODIP,
    &IO_K8S_API_CORE_V1_PODLIST,
    &IO_K8S_API_CORE_V1_PODOS,
    &IO_K8S_API_CORE_V1_PODREADINESSGATE,
    &IO_K8S_API_CORE_V1_PODRESOURCECLAIM,
    &IO_K8S_API_CORE_V1_PODRESOURCECLAIMSTATUS,
    &IO_K8S_API_CORE_V1_PODSCHEDULINGGATE,
    &IO_K8S_API_CORE_V1_PODSECURITYCONTEXT,
    &IO_K8S_API_CORE_V1_PODSPEC,
    &IO_K8S_API_CORE_V1_PODSTATUS,
    &IO_K8S_API_CORE_V1_PODTEMPLATE,
    &IO_K8S_API_CORE_V1_PODTEMPLATELIST,
    &IO_K8S_API_CORE_V1_PODTEMPLATESPEC,
    &IO_K8S_API_CORE_V1_PORTSTATUS,
    &IO_K8S_API_CORE_V1_PORTWORXVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_PREFERREDSCHEDULINGTERM,
    &IO_K8S_API_CORE_V1_PROBE,
    &IO_K8S_API_CORE_V1_PROBEHANDLER,
    &IO_K8S_API_CORE_V1_PROJECTEDVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_QUOBYTEVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_RBDPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_RBDVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_REPLICATIONCONTROLLER,
    &IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERCONDITION,
    &IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERLIST,
    &IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERSPEC,
    &IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERSTATUS,
    &IO_K8S_API_CORE_V1_RESOURCECLAIM,
    &IO_K8S_API_CORE_V1_RESOURCEFIELDSELECTOR,
    &IO_K8S_API_CORE_V1_RESOURCEHEALTH,
    &IO_K8S_API_CORE_V1_RESOURCEQUOTA,
    &IO_K8S_API_CORE_V1_RESOURCEQUOTALIST,
    &IO_K8S_API_CORE_V1_RESOURCEQUOTASPEC,
    &IO_K8S_API_CORE_V1_RESOURCEQUOTASTATUS,
    &IO_K8S_API_CORE_V1_RESOURCEREQUIREMENTS,
    &IO_K8S_API_CORE_V1_RESOURCESTATUS,
    &IO_K8S_API_CORE_V1_SELINUXOPTIONS,
    &IO_K8S_API_CORE_V1_SCALEIOPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_SCALEIOVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_SCOPESELECTOR,
    &IO_K8S_API_CORE_V1_SCOPEDRESOURCESELECTORREQUIREMENT,
    &IO_K8S_API_CORE_V1_SECCOMPPROFILE,
    &IO_K8S_API_CORE_V1_SECRET,
    &IO_K8S_API_CORE_V1_SECRETENVSOURCE,
    &IO_K8S_API_CORE_V1_SECRETKEYSELECTOR,
    &IO_K8S_API_CORE_V1_SECRETLIST,
    &IO_K8S_API_CORE_V1_SECRETPROJECTION,
    &IO_K8S_API_CORE_V1_SECRETREFERENCE,
    &IO_K8S_API_CORE_V1_SECRETVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_SECURITYCONTEXT,
    &IO_K8S_API_CORE_V1_SERVICE,
    &IO_K8S_API_CORE_V1_SERVICEACCOUNT,
    &IO_K8S_API_CORE_V1_SERVICEACCOUNTLIST,
    &IO_K8S_API_CORE_V1_SERVICEACCOUNTTOKENPROJECTION,
    &IO_K8S_API_CORE_V1_SERVICELIST,
    &IO_K8S_API_CORE_V1_SERVICEPORT,
    &IO_K8S_API_CORE_V1_SERVICESPEC,
    &IO_K8S_API_CORE_V1_SERVICESTATUS,
    &IO_K8S_API_CORE_V1_SESSIONAFFINITYCONFIG,
    &IO_K8S_API_CORE_V1_SLEEPACTION,
    &IO_K8S_API_CORE_V1_STORAGEOSPERSISTENTVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_STORAGEOSVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_SYSCTL,
    &IO_K8S_API_CORE_V1_TCPSOCKETACTION,
    &IO_K8S_API_CORE_V1_TAINT,
    &IO_K8S_API_CORE_V1_TOLERATION,
    &IO_K8S_API_CORE_V1_TOPOLOGYSELECTORLABELREQUIREMENT,
    &IO_K8S_API_CORE_V1_TOPOLOGYSELECTORTERM,
    &IO_K8S_API_CORE_V1_TOPOLOGYSPREADCONSTRAINT,
    &IO_K8S_API_CORE_V1_TYPEDLOCALOBJECTREFERENCE,
    &IO_K8S_API_CORE_V1_TYPEDOBJECTREFERENCE,
    &IO_K8S_API_CORE_V1_VOLUME,
    &IO_K8S_API_CORE_V1_VOLUMEDEVICE,
    &IO_K8S_API_CORE_V1_VOLUMEMOUNT,
    &IO_K8S_API_CORE_V1_VOLUMEMOUNTSTATUS,
    &IO_K8S_API_CORE_V1_VOLUMENODEAFFINITY,
    &IO_K8S_API_CORE_V1_VOLUMEPROJECTION,
    &IO_K8S_API_CORE_V1_VOLUMERESOURCEREQUIREMENTS,
    &IO_K8S_API_CORE_V1_VOLUMESOURCE,
    &IO_K8S_API_CORE_V1_VSPHEREVIRTUALDISKVOLUMESOURCE,
    &IO_K8S_API_CORE_V1_WEIGHTEDPODAFFINITYTERM,
    &IO_K8S_API_CORE_V1_WINDOWSSECURITYCONTEXTOPTIONS,
    &IO_K8S_API_DISCOVERY_V1_ENDPOINT,
    &IO_K8S_API_DISCOVERY_V1_ENDPOINTCONDITIONS,
    &IO_K8S_API_DISCOVERY_V1_ENDPOINTHINTS,
    &IO_K8S_API_DISCOVERY_V1_ENDPOINTPORT,
    &IO_K8S_API_DISCOVERY_V1_ENDPOINTSLICE,
    &IO_K8S_API_DISCOVERY_V1_ENDPOINTSLICELIST,
    &IO_K8S_API_DISCOVERY_V1_FORNODE,
    &IO_K8S_API_DISCOVERY_V1_FORZONE,
    &IO_K8S_API_EVENTS_V1_EVENT,
    &IO_K8S_API_EVENTS_V1_EVENTLIST,
    &IO_K8S_API_EVENTS_V1_EVENTSERIES,
    &IO_K8S_API_FLOWCONTROL_V1_EXEMPTPRIORITYLEVELCONFIGURATION,
    &IO_K8S_API_FLOWCONTROL_V1_FLOWDISTINGUISHERMETHOD,
    &IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMA,
    &IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMACONDITION,
    &IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMALIST,
    &IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMASPEC,
    &IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMASTATUS,
    &IO_K8S_API_FLOWCONTROL_V1_GROUPSUBJECT,
    &IO_K8S_API_FLOWCONTROL_V1_LIMITRESPONSE,
    &IO_K8S_API_FLOWCONTROL_V1_LIMITEDPRIORITYLEVELCONFIGURATION,
    &IO_K8S_API_FLOWCONTROL_V1_NONRESOURCEPOLICYRULE,
    &IO_K8S_API_FLOWCONTROL_V1_POLICYRULESWITHSUBJECTS,
    &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATION,
    &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONCONDITION,
    &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONLIST,
    &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONREFERENCE,
    &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONSPEC,
    &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONSTATUS,
    &IO_K8S_API_FLOWCONTROL_V1_QUEUINGCONFIGURATION,
    &IO_K8S_API_FLOWCONTROL_V1_RESOURCEPOLICYRULE,
    &IO_K8S_API_FLOWCONTROL_V1_SERVICEACCOUNTSUBJECT,
    &IO_K8S_API_FLOWCONTROL_V1_SUBJECT,
    &IO_K8S_API_FLOWCONTROL_V1_USERSUBJECT,
    &IO_K8S_API_NETWORKING_V1_HTTPINGRESSPATH,
    &IO_K8S_API_NETWORKING_V1_HTTPINGRESSRULEVALUE,
    &IO_K8S_API_NETWORKING_V1_IPADDRESS,
    &IO_K8S_API_NETWORKING_V1_IPADDRESSLIST,
    &IO_K8S_API_NETWORKING_V1_IPADDRESSSPEC,
    &IO_K8S_API_NETWORKING_V1_IPBLOCK,
    &IO_K8S_API_NETWORKING_V1_INGRESS,
    &IO_K8S_API_NETWORKING_V1_INGRESSBACKEND,
    &IO_K8S_API_NETWORKING_V1_INGRESSCLASS,
    &IO_K8S_API_NETWORKING_V1_INGRESSCLASSLIST,
    &IO_K8S_API_NETWORKING_V1_INGRESSCLASSPARAMETERSREFERENCE,
    &IO_K8S_API_NETWORKING_V1_INGRESSCLASSSPEC,
    &IO_K8S_API_NETWORKING_V1_INGRESSLIST,
    &IO_K8S_API_NETWORKING_V1_INGRESSLOADBALANCERINGRESS,
    &IO_K8S_API_NETWORKING_V1_INGRESSLOADBALANCERSTATUS,
    &IO_K8S_API_NETWORKING_V1_INGRESSPORTSTATUS,
    &IO_K8S_API_NETWORKING_V1_INGRESSRULE,
    &IO_K8S_API_NETWORKING_V1_INGRESSRULEVALUE,
    &IO_K8S_API_NETWORKING_V1_INGRESSSERVICEBACKEND,
    &IO_K8S_API_NETWORKING_V1_INGRESSSPEC,
    &IO_K8S_API_NETWORKING_V1_INGRESSSTATUS,
    &IO_K8S_API_NETWORKING_V1_INGRESSTLS,
    &IO_K8S_API_NETWORKING_V1_NETWORKPOLICY,
    &IO_K8S_API_NETWORKING_V1_NETWORKPOLICYEGRESSRULE,
    &IO_K8S_API_NETWORKING_V1_NETWORKPOLICYINGRESSRULE,
    &IO_K8S_API_NETWORKING_V1_NETWORKPOLICYLIST,
    &IO_K8S_API_NETWORKING_V1_NETWORKPOLICYPEER,
    &IO_K8S_API_NETWORKING_V1_NETWORKPOLICYPORT,
    &IO_K8S_API_NETWORKING_V1_NETWORKPOLICYSPEC,
    &IO_K8S_API_NETWORKING_V1_PARENTREFERENCE,
    &IO_K8S_API_NETWORKING_V1_SERVICEBACKENDPORT,
    &IO_K8S_API_NETWORKING_V1_SERVICECIDR,
    &IO_K8S_API_NETWORKING_V1_SERVICECIDRLIST,
    &IO_K8S_API_NETWORKING_V1_SERVICECIDRSPEC,
    &IO_K8S_API_NETWORKING_V1_SERVICECIDRSTATUS,
    &IO_K8S_API_NETWORKING_V1BETA1_IPADDRESS,
    &IO_K8S_API_NETWORKING_V1BETA1_IPADDRESSLIST,
    &IO_K8S_API_NETWORKING_V1BETA1_IPADDRESSSPEC,
    &IO_K8S_API_NETWORKING_V1BETA1_PARENTREFERENCE,
    &IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDR,
    &IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDRLIST,
    &IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDRSPEC,
    &IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDRSTATUS,
    &IO_K8S_API_NODE_V1_OVERHEAD,
    &IO_K8S_API_NODE_V1_RUNTIMECLASS,
    &IO_K8S_API_NODE_V1_RUNTIMECLASSLIST,
    &IO_K8S_API_NODE_V1_SCHEDULING,
    &IO_K8S_API_POLICY_V1_EVICTION,
    &IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGET,
    &IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGETLIST,
    &IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGETSPEC,
    &IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGETSTATUS,
    &IO_K8S_API_RBAC_V1_AGGREGATIONRULE,
    &IO_K8S_API_RBAC_V1_CLUSTERROLE,
    &IO_K8S_API_RBAC_V1_CLUSTERROLEBINDING,
    &IO_K8S_API_RBAC_V1_CLUSTERROLEBINDINGLIST,
    &IO_K8S_API_RBAC_V1_CLUSTERROLELIST,
    &IO_K8S_API_RBAC_V1_POLICYRULE,
    &IO_K8S_API_RBAC_V1_ROLE,
    &IO_K8S_API_RBAC_V1_ROLEBINDING,
    &IO_K8S_API_RBAC_V1_ROLEBINDINGLIST,
    &IO_K8S_API_RBAC_V1_ROLELIST,
    &IO_K8S_API_RBAC_V1_ROLEREF,
    &IO_K8S_API_RBAC_V1_SUBJECT,
    &IO_K8S_API_RESOURCE_V1ALPHA3_ALLOCATEDDEVICESTATUS,
    &IO_K8S_API_RESOURCE_V1ALPHA3_ALLOCATIONRESULT,
    &IO_K8S_API_RESOURCE_V1ALPHA3_BASICDEVICE,
    &IO_K8S_API_RESOURCE_V1ALPHA3_CELDEVICESELECTOR,
    &IO_K8S_API_RESOURCE_V1ALPHA3_COUNTER,
    &IO_K8S_API_RESOURCE_V1ALPHA3_COUNTERSET,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICE,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEALLOCATIONCONFIGURATION,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEALLOCATIONRESULT,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEATTRIBUTE,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLAIM,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLAIMCONFIGURATION,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASS,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASSCONFIGURATION,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASSLIST,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASSSPEC,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECONSTRAINT,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECOUNTERCONSUMPTION,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEREQUEST,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICEREQUESTALLOCATIONRESULT,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICESELECTOR,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICESUBREQUEST,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINT,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULE,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULELIST,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULESPEC,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTSELECTOR,
    &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETOLERATION,
    &IO_K8S_API_RESOURCE_V1ALPHA3_NETWORKDEVICEDATA,
    &IO_K8S_API_RESOURCE_V1ALPHA3_OPAQUEDEVICECONFIGURATION,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIM,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMCONSUMERREFERENCE,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMLIST,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMSPEC,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMSTATUS,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMTEMPLATE,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMTEMPLATELIST,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMTEMPLATESPEC,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCEPOOL,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCESLICE,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCESLICELIST,
    &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCESLICESPEC,
    &IO_K8S_API_RESOURCE_V1BETA1_ALLOCATEDDEVICESTATUS,
    &IO_K8S_API_RESOURCE_V1BETA1_ALLOCATIONRESULT,
    &IO_K8S_API_RESOURCE_V1BETA1_BASICDEVICE,
    &IO_K8S_API_RESOURCE_V1BETA1_CELDEVICESELECTOR,
    &IO_K8S_API_RESOURCE_V1BETA1_COUNTER,
    &IO_K8S_API_RESOURCE_V1BETA1_COUNTERSET,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICE,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICEALLOCATIONCONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICEALLOCATIONRESULT,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICEATTRIBUTE,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECAPACITY,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLAIM,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLAIMCONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASS,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASSCONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASSLIST,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASSSPEC,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECONSTRAINT,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICECOUNTERCONSUMPTION,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICEREQUEST,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICEREQUESTALLOCATIONRESULT,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICESELECTOR,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICESUBREQUEST,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICETAINT,
    &IO_K8S_API_RESOURCE_V1BETA1_DEVICETOLERATION,
    &IO_K8S_API_RESOURCE_V1BETA1_NETWORKDEVICEDATA,
    &IO_K8S_API_RESOURCE_V1BETA1_OPAQUEDEVICECONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIM,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMCONSUMERREFERENCE,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMLIST,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMSPEC,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMSTATUS,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATE,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATELIST,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATESPEC,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCEPOOL,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICE,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICELIST,
    &IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICESPEC,
    &IO_K8S_API_RESOURCE_V1BETA2_ALLOCATEDDEVICESTATUS,
    &IO_K8S_API_RESOURCE_V1BETA2_ALLOCATIONRESULT,
    &IO_K8S_API_RESOURCE_V1BETA2_CELDEVICESELECTOR,
    &IO_K8S_API_RESOURCE_V1BETA2_COUNTER,
    &IO_K8S_API_RESOURCE_V1BETA2_COUNTERSET,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICE,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICEALLOCATIONCONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICEALLOCATIONRESULT,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICEATTRIBUTE,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECAPACITY,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLAIM,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLAIMCONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASS,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASSCONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASSLIST,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASSSPEC,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECONSTRAINT,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICECOUNTERCONSUMPTION,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICEREQUEST,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICEREQUESTALLOCATIONRESULT,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICESELECTOR,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICESUBREQUEST,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICETAINT,
    &IO_K8S_API_RESOURCE_V1BETA2_DEVICETOLERATION,
    &IO_K8S_API_RESOURCE_V1BETA2_EXACTDEVICEREQUEST,
    &IO_K8S_API_RESOURCE_V1BETA2_NETWORKDEVICEDATA,
    &IO_K8S_API_RESOURCE_V1BETA2_OPAQUEDEVICECONFIGURATION,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIM,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMCONSUMERREFERENCE,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMLIST,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMSPEC,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMSTATUS,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATE,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATELIST,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATESPEC,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCEPOOL,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICE,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICELIST,
    &IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICESPEC,
    &IO_K8S_API_SCHEDULING_V1_PRIORITYCLASS,
    &IO_K8S_API_SCHEDULING_V1_PRIORITYCLASSLIST,
    &IO_K8S_API_STORAGE_V1_CSIDRIVER,
    &IO_K8S_API_STORAGE_V1_CSIDRIVERLIST,
    &IO_K8S_API_STORAGE_V1_CSIDRIVERSPEC,
    &IO_K8S_API_STORAGE_V1_CSINODE,
    &IO_K8S_API_STORAGE_V1_CSINODEDRIVER,
    &IO_K8S_API_STORAGE_V1_CSINODELIST,
    &IO_K8S_API_STORAGE_V1_CSINODESPEC,
    &IO_K8S_API_STORAGE_V1_CSISTORAGECAPACITY,
    &IO_K8S_API_STORAGE_V1_CSISTORAGECAPACITYLIST,
    &IO_K8S_API_STORAGE_V1_STORAGECLASS,
    &IO_K8S_API_STORAGE_V1_STORAGECLASSLIST,
    &IO_K8S_API_STORAGE_V1_TOKENREQUEST,
    &IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENT,
    &IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTLIST,
    &IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTSOURCE,
    &IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTSPEC,
    &IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTSTATUS,
    &IO_K8S_API_STORAGE_V1_VOLUMEERROR,
    &IO_K8S_API_STORAGE_V1_VOLUMENODERESOURCES,
    &IO_K8S_API_STORAGE_V1ALPHA1_VOLUMEATTRIBUTESCLASS,
    &IO_K8S_API_STORAGE_V1ALPHA1_VOLUMEATTRIBUTESCLASSLIST,
    &IO_K8S_API_STORAGE_V1BETA1_VOLUMEATTRIBUTESCLASS,
    &IO_K8S_API_STORAGE_V1BETA1_VOLUMEATTRIBUTESCLASSLIST,
    &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_GROUPVERSIONRESOURCE,
    &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_MIGRATIONCONDITION,
    &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATION,
    &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATIONLIST,
    &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATIONSPEC,
    &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATIONSTATUS,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCECOLUMNDEFINITION,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCECONVERSION,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITION,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONCONDITION,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONLIST,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONNAMES,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONSPEC,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONSTATUS,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONVERSION,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCESUBRESOURCESCALE,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCESUBRESOURCESTATUS,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCESUBRESOURCES,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEVALIDATION,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_EXTERNALDOCUMENTATION,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSON,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPS,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORARRAY,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORBOOL,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_JSONSCHEMAPROPSORSTRINGARRAY,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_SELECTABLEFIELD,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_SERVICEREFERENCE,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_VALIDATIONRULE,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_WEBHOOKCLIENTCONFIG,
    &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_WEBHOOKCONVERSION,
    &IO_K8S_APIMACHINERY_PKG_API_RESOURCE_QUANTITY,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIGROUP,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIGROUPLIST,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIRESOURCE,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIRESOURCELIST,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIVERSIONS,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_CONDITION,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_DELETEOPTIONS,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_FIELDSELECTORREQUIREMENT,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_FIELDSV1,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_GROUPVERSIONFORDISCOVERY,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_GROUPVERSIONKIND,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTOR,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LABELSELECTORREQUIREMENT,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_LISTMETA,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MANAGEDFIELDSENTRY,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_MICROTIME,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OBJECTMETA,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_OWNERREFERENCE,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PARTIALOBJECTMETADATA,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PARTIALOBJECTMETADATALIST,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PATCH,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PRECONDITIONS,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_SERVERADDRESSBYCLIENTCIDR,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_STATUS,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_STATUSCAUSE,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_STATUSDETAILS,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLE,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLECOLUMNDEFINITION,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLEOPTIONS,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLEROW,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLEROWCONDITION,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TIME,
    &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_WATCHEVENT,
    &IO_K8S_APIMACHINERY_PKG_RUNTIME_RAWEXTENSION,
    &IO_K8S_APIMACHINERY_PKG_UTIL_INTSTR_INTORSTRING,
    &IO_K8S_APIMACHINERY_PKG_VERSION_INFO,
    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICE,
    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICECONDITION,
    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICELIST,
    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICESPEC,
    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICESTATUS,
    &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_SERVICEREFERENCE,
];

pub(crate) static KINDS: [(&str, &str, &str, &TypeDef); 183] = [
    (
        "",
        "v1",
        "APIGroup",
        &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIGROUP,
    ),
    (
        "",
        "v1",
        "APIGroupList",
        &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIGROUPLIST,
    ),
    (
        "",
        "v1",
        "APIResourceList",
        &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIRESOURCELIST,
    ),
    (
        "",
        "v1",
        "APIVersions",
        &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_APIVERSIONS,
    ),
    ("", "v1", "Binding", &IO_K8S_API_CORE_V1_BINDING),
    (
        "",
        "v1",
        "ComponentStatus",
        &IO_K8S_API_CORE_V1_COMPONENTSTATUS,
    ),
    (
        "",
        "v1",
        "ComponentStatusList",
        &IO_K8S_API_CORE_V1_COMPONENTSTATUSLIST,
    ),
    ("", "v1", "ConfigMap", &IO_K8S_API_CORE_V1_CONFIGMAP),
    ("", "v1", "ConfigMapList", &IO_K8S_API_CORE_V1_CONFIGMAPLIST),
    ("", "v1", "Endpoints", &IO_K8S_API_CORE_V1_ENDPOINTS),
    ("", "v1", "EndpointsList", &IO_K8S_API_CORE_V1_ENDPOINTSLIST),
    ("", "v1", "Event", &IO_K8S_API_CORE_V1_EVENT),
    ("", "v1", "EventList", &IO_K8S_API_CORE_V1_EVENTLIST),
    ("", "v1", "LimitRange", &IO_K8S_API_CORE_V1_LIMITRANGE),
    (
        "",
        "v1",
        "LimitRangeList",
        &IO_K8S_API_CORE_V1_LIMITRANGELIST,
    ),
    ("", "v1", "Namespace", &IO_K8S_API_CORE_V1_NAMESPACE),
    ("", "v1", "NamespaceList", &IO_K8S_API_CORE_V1_NAMESPACELIST),
    ("", "v1", "Node", &IO_K8S_API_CORE_V1_NODE),
    ("", "v1", "NodeList", &IO_K8S_API_CORE_V1_NODELIST),
    (
        "",
        "v1",
        "PersistentVolume",
        &IO_K8S_API_CORE_V1_PERSISTENTVOLUME,
    ),
    (
        "",
        "v1",
        "PersistentVolumeClaim",
        &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIM,
    ),
    (
        "",
        "v1",
        "PersistentVolumeClaimList",
        &IO_K8S_API_CORE_V1_PERSISTENTVOLUMECLAIMLIST,
    ),
    (
        "",
        "v1",
        "PersistentVolumeList",
        &IO_K8S_API_CORE_V1_PERSISTENTVOLUMELIST,
    ),
    ("", "v1", "Pod", &IO_K8S_API_CORE_V1_POD),
    ("", "v1", "PodList", &IO_K8S_API_CORE_V1_PODLIST),
    ("", "v1", "PodTemplate", &IO_K8S_API_CORE_V1_PODTEMPLATE),
    (
        "",
        "v1",
        "PodTemplateList",
        &IO_K8S_API_CORE_V1_PODTEMPLATELIST,
    ),
    (
        "",
        "v1",
        "ReplicationController",
        &IO_K8S_API_CORE_V1_REPLICATIONCONTROLLER,
    ),
    (
        "",
        "v1",
        "ReplicationControllerList",
        &IO_K8S_API_CORE_V1_REPLICATIONCONTROLLERLIST,
    ),
    ("", "v1", "ResourceQuota", &IO_K8S_API_CORE_V1_RESOURCEQUOTA),
    (
        "",
        "v1",
        "ResourceQuotaList",
        &IO_K8S_API_CORE_V1_RESOURCEQUOTALIST,
    ),
    ("", "v1", "Secret", &IO_K8S_API_CORE_V1_SECRET),
    ("", "v1", "SecretList", &IO_K8S_API_CORE_V1_SECRETLIST),
    ("", "v1", "Service", &IO_K8S_API_CORE_V1_SERVICE),
    (
        "",
        "v1",
        "ServiceAccount",
        &IO_K8S_API_CORE_V1_SERVICEACCOUNT,
    ),
    (
        "",
        "v1",
        "ServiceAccountList",
        &IO_K8S_API_CORE_V1_SERVICEACCOUNTLIST,
    ),
    ("", "v1", "ServiceList", &IO_K8S_API_CORE_V1_SERVICELIST),
    (
        "",
        "v1",
        "Status",
        &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_STATUS,
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "MutatingWebhookConfiguration",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOKCONFIGURATION,
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "MutatingWebhookConfigurationList",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1_MUTATINGWEBHOOKCONFIGURATIONLIST,
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "ValidatingAdmissionPolicy",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICY,
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "ValidatingAdmissionPolicyBinding",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDING,
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "ValidatingAdmissionPolicyBindingList",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYBINDINGLIST,
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "ValidatingAdmissionPolicyList",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGADMISSIONPOLICYLIST,
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "ValidatingWebhookConfiguration",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOKCONFIGURATION,
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "ValidatingWebhookConfigurationList",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1_VALIDATINGWEBHOOKCONFIGURATIONLIST,
    ),
    (
        "admissionregistration.k8s.io",
        "v1alpha1",
        "MutatingAdmissionPolicy",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICY,
    ),
    (
        "admissionregistration.k8s.io",
        "v1alpha1",
        "MutatingAdmissionPolicyBinding",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDING,
    ),
    (
        "admissionregistration.k8s.io",
        "v1alpha1",
        "MutatingAdmissionPolicyBindingList",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYBINDINGLIST,
    ),
    (
        "admissionregistration.k8s.io",
        "v1alpha1",
        "MutatingAdmissionPolicyList",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1ALPHA1_MUTATINGADMISSIONPOLICYLIST,
    ),
    (
        "admissionregistration.k8s.io",
        "v1beta1",
        "ValidatingAdmissionPolicy",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICY,
    ),
    (
        "admissionregistration.k8s.io",
        "v1beta1",
        "ValidatingAdmissionPolicyBinding",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDING,
    ),
    (
        "admissionregistration.k8s.io",
        "v1beta1",
        "ValidatingAdmissionPolicyBindingList",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYBINDINGLIST,
    ),
    (
        "admissionregistration.k8s.io",
        "v1beta1",
        "ValidatingAdmissionPolicyList",
        &IO_K8S_API_ADMISSIONREGISTRATION_V1BETA1_VALIDATINGADMISSIONPOLICYLIST,
    ),
    (
        "apidiscovery.k8s.io",
        "v2",
        "APIGroupDiscovery",
        &IO_K8S_API_APIDISCOVERY_V2_APIGROUPDISCOVERY,
    ),
    (
        "apidiscovery.k8s.io",
        "v2",
        "APIGroupDiscoveryList",
        &IO_K8S_API_APIDISCOVERY_V2_APIGROUPDISCOVERYLIST,
    ),
    (
        "apiextensions.k8s.io",
        "v1",
        "CustomResourceDefinition",
        &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITION,
    ),
    (
        "apiextensions.k8s.io",
        "v1",
        "CustomResourceDefinitionList",
        &IO_K8S_APIEXTENSIONS_APISERVER_PKG_APIS_APIEXTENSIONS_V1_CUSTOMRESOURCEDEFINITIONLIST,
    ),
    (
        "apiregistration.k8s.io",
        "v1",
        "APIService",
        &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICE,
    ),
    (
        "apiregistration.k8s.io",
        "v1",
        "APIServiceList",
        &IO_K8S_KUBE_AGGREGATOR_PKG_APIS_APIREGISTRATION_V1_APISERVICELIST,
    ),
    (
        "apps",
        "v1",
        "ControllerRevision",
        &IO_K8S_API_APPS_V1_CONTROLLERREVISION,
    ),
    (
        "apps",
        "v1",
        "ControllerRevisionList",
        &IO_K8S_API_APPS_V1_CONTROLLERREVISIONLIST,
    ),
    ("apps", "v1", "DaemonSet", &IO_K8S_API_APPS_V1_DAEMONSET),
    (
        "apps",
        "v1",
        "DaemonSetList",
        &IO_K8S_API_APPS_V1_DAEMONSETLIST,
    ),
    ("apps", "v1", "Deployment", &IO_K8S_API_APPS_V1_DEPLOYMENT),
    (
        "apps",
        "v1",
        "DeploymentList",
        &IO_K8S_API_APPS_V1_DEPLOYMENTLIST,
    ),
    ("apps", "v1", "ReplicaSet", &IO_K8S_API_APPS_V1_REPLICASET),
    (
        "apps",
        "v1",
        "ReplicaSetList",
        &IO_K8S_API_APPS_V1_REPLICASETLIST,
    ),
    ("apps", "v1", "StatefulSet", &IO_K8S_API_APPS_V1_STATEFULSET),
    (
        "apps",
        "v1",
        "StatefulSetList",
        &IO_K8S_API_APPS_V1_STATEFULSETLIST,
    ),
    (
        "authentication.k8s.io",
        "v1",
        "SelfSubjectReview",
        &IO_K8S_API_AUTHENTICATION_V1_SELFSUBJECTREVIEW,
    ),
    (
        "authentication.k8s.io",
        "v1",
        "TokenRequest",
        &IO_K8S_API_AUTHENTICATION_V1_TOKENREQUEST,
    ),
    (
        "authentication.k8s.io",
        "v1",
        "TokenReview",
        &IO_K8S_API_AUTHENTICATION_V1_TOKENREVIEW,
    ),
    (
        "authorization.k8s.io",
        "v1",
        "LocalSubjectAccessReview",
        &IO_K8S_API_AUTHORIZATION_V1_LOCALSUBJECTACCESSREVIEW,
    ),
    (
        "authorization.k8s.io",
        "v1",
        "SelfSubjectAccessReview",
        &IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTACCESSREVIEW,
    ),
    (
        "authorization.k8s.io",
        "v1",
        "SelfSubjectRulesReview",
        &IO_K8S_API_AUTHORIZATION_V1_SELFSUBJECTRULESREVIEW,
    ),
    (
        "authorization.k8s.io",
        "v1",
        "SubjectAccessReview",
        &IO_K8S_API_AUTHORIZATION_V1_SUBJECTACCESSREVIEW,
    ),
    (
        "autoscaling",
        "v1",
        "HorizontalPodAutoscaler",
        &IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALER,
    ),
    (
        "autoscaling",
        "v1",
        "HorizontalPodAutoscalerList",
        &IO_K8S_API_AUTOSCALING_V1_HORIZONTALPODAUTOSCALERLIST,
    ),
    (
        "autoscaling",
        "v1",
        "Scale",
        &IO_K8S_API_AUTOSCALING_V1_SCALE,
    ),
    (
        "autoscaling",
        "v2",
        "HorizontalPodAutoscaler",
        &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALER,
    ),
    (
        "autoscaling",
        "v2",
        "HorizontalPodAutoscalerList",
        &IO_K8S_API_AUTOSCALING_V2_HORIZONTALPODAUTOSCALERLIST,
    ),
    ("batch", "v1", "CronJob", &IO_K8S_API_BATCH_V1_CRONJOB),
    (
        "batch",
        "v1",
        "CronJobList",
        &IO_K8S_API_BATCH_V1_CRONJOBLIST,
    ),
    ("batch", "v1", "Job", &IO_K8S_API_BATCH_V1_JOB),
    ("batch", "v1", "JobList", &IO_K8S_API_BATCH_V1_JOBLIST),
    (
        "certificates.k8s.io",
        "v1",
        "CertificateSigningRequest",
        &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUEST,
    ),
    (
        "certificates.k8s.io",
        "v1",
        "CertificateSigningRequestList",
        &IO_K8S_API_CERTIFICATES_V1_CERTIFICATESIGNINGREQUESTLIST,
    ),
    (
        "certificates.k8s.io",
        "v1alpha1",
        "ClusterTrustBundle",
        &IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLE,
    ),
    (
        "certificates.k8s.io",
        "v1alpha1",
        "ClusterTrustBundleList",
        &IO_K8S_API_CERTIFICATES_V1ALPHA1_CLUSTERTRUSTBUNDLELIST,
    ),
    (
        "certificates.k8s.io",
        "v1beta1",
        "ClusterTrustBundle",
        &IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLE,
    ),
    (
        "certificates.k8s.io",
        "v1beta1",
        "ClusterTrustBundleList",
        &IO_K8S_API_CERTIFICATES_V1BETA1_CLUSTERTRUSTBUNDLELIST,
    ),
    (
        "coordination.k8s.io",
        "v1",
        "Lease",
        &IO_K8S_API_COORDINATION_V1_LEASE,
    ),
    (
        "coordination.k8s.io",
        "v1",
        "LeaseList",
        &IO_K8S_API_COORDINATION_V1_LEASELIST,
    ),
    (
        "coordination.k8s.io",
        "v1alpha2",
        "LeaseCandidate",
        &IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATE,
    ),
    (
        "coordination.k8s.io",
        "v1alpha2",
        "LeaseCandidateList",
        &IO_K8S_API_COORDINATION_V1ALPHA2_LEASECANDIDATELIST,
    ),
    (
        "coordination.k8s.io",
        "v1beta1",
        "LeaseCandidate",
        &IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATE,
    ),
    (
        "coordination.k8s.io",
        "v1beta1",
        "LeaseCandidateList",
        &IO_K8S_API_COORDINATION_V1BETA1_LEASECANDIDATELIST,
    ),
    (
        "discovery.k8s.io",
        "v1",
        "EndpointSlice",
        &IO_K8S_API_DISCOVERY_V1_ENDPOINTSLICE,
    ),
    (
        "discovery.k8s.io",
        "v1",
        "EndpointSliceList",
        &IO_K8S_API_DISCOVERY_V1_ENDPOINTSLICELIST,
    ),
    ("events.k8s.io", "v1", "Event", &IO_K8S_API_EVENTS_V1_EVENT),
    (
        "events.k8s.io",
        "v1",
        "EventList",
        &IO_K8S_API_EVENTS_V1_EVENTLIST,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "FlowSchema",
        &IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMA,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "FlowSchemaList",
        &IO_K8S_API_FLOWCONTROL_V1_FLOWSCHEMALIST,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "PriorityLevelConfiguration",
        &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATION,
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "PriorityLevelConfigurationList",
        &IO_K8S_API_FLOWCONTROL_V1_PRIORITYLEVELCONFIGURATIONLIST,
    ),
    (
        "internal.apiserver.k8s.io",
        "v1alpha1",
        "StorageVersion",
        &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSION,
    ),
    (
        "internal.apiserver.k8s.io",
        "v1alpha1",
        "StorageVersionList",
        &IO_K8S_API_APISERVERINTERNAL_V1ALPHA1_STORAGEVERSIONLIST,
    ),
    (
        "meta.k8s.io",
        "v1",
        "PartialObjectMetadata",
        &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PARTIALOBJECTMETADATA,
    ),
    (
        "meta.k8s.io",
        "v1",
        "PartialObjectMetadataList",
        &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_PARTIALOBJECTMETADATALIST,
    ),
    (
        "meta.k8s.io",
        "v1",
        "Table",
        &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLE,
    ),
    (
        "meta.k8s.io",
        "v1",
        "TableOptions",
        &IO_K8S_APIMACHINERY_PKG_APIS_META_V1_TABLEOPTIONS,
    ),
    (
        "networking.k8s.io",
        "v1",
        "IPAddress",
        &IO_K8S_API_NETWORKING_V1_IPADDRESS,
    ),
    (
        "networking.k8s.io",
        "v1",
        "IPAddressList",
        &IO_K8S_API_NETWORKING_V1_IPADDRESSLIST,
    ),
    (
        "networking.k8s.io",
        "v1",
        "Ingress",
        &IO_K8S_API_NETWORKING_V1_INGRESS,
    ),
    (
        "networking.k8s.io",
        "v1",
        "IngressClass",
        &IO_K8S_API_NETWORKING_V1_INGRESSCLASS,
    ),
    (
        "networking.k8s.io",
        "v1",
        "IngressClassList",
        &IO_K8S_API_NETWORKING_V1_INGRESSCLASSLIST,
    ),
    (
        "networking.k8s.io",
        "v1",
        "IngressList",
        &IO_K8S_API_NETWORKING_V1_INGRESSLIST,
    ),
    (
        "networking.k8s.io",
        "v1",
        "NetworkPolicy",
        &IO_K8S_API_NETWORKING_V1_NETWORKPOLICY,
    ),
    (
        "networking.k8s.io",
        "v1",
        "NetworkPolicyList",
        &IO_K8S_API_NETWORKING_V1_NETWORKPOLICYLIST,
    ),
    (
        "networking.k8s.io",
        "v1",
        "ServiceCIDR",
        &IO_K8S_API_NETWORKING_V1_SERVICECIDR,
    ),
    (
        "networking.k8s.io",
        "v1",
        "ServiceCIDRList",
        &IO_K8S_API_NETWORKING_V1_SERVICECIDRLIST,
    ),
    (
        "networking.k8s.io",
        "v1beta1",
        "IPAddress",
        &IO_K8S_API_NETWORKING_V1BETA1_IPADDRESS,
    ),
    (
        "networking.k8s.io",
        "v1beta1",
        "IPAddressList",
        &IO_K8S_API_NETWORKING_V1BETA1_IPADDRESSLIST,
    ),
    (
        "networking.k8s.io",
        "v1beta1",
        "ServiceCIDR",
        &IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDR,
    ),
    (
        "networking.k8s.io",
        "v1beta1",
        "ServiceCIDRList",
        &IO_K8S_API_NETWORKING_V1BETA1_SERVICECIDRLIST,
    ),
    (
        "node.k8s.io",
        "v1",
        "RuntimeClass",
        &IO_K8S_API_NODE_V1_RUNTIMECLASS,
    ),
    (
        "node.k8s.io",
        "v1",
        "RuntimeClassList",
        &IO_K8S_API_NODE_V1_RUNTIMECLASSLIST,
    ),
    ("policy", "v1", "Eviction", &IO_K8S_API_POLICY_V1_EVICTION),
    (
        "policy",
        "v1",
        "PodDisruptionBudget",
        &IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGET,
    ),
    (
        "policy",
        "v1",
        "PodDisruptionBudgetList",
        &IO_K8S_API_POLICY_V1_PODDISRUPTIONBUDGETLIST,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRole",
        &IO_K8S_API_RBAC_V1_CLUSTERROLE,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRoleBinding",
        &IO_K8S_API_RBAC_V1_CLUSTERROLEBINDING,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRoleBindingList",
        &IO_K8S_API_RBAC_V1_CLUSTERROLEBINDINGLIST,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRoleList",
        &IO_K8S_API_RBAC_V1_CLUSTERROLELIST,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "Role",
        &IO_K8S_API_RBAC_V1_ROLE,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "RoleBinding",
        &IO_K8S_API_RBAC_V1_ROLEBINDING,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "RoleBindingList",
        &IO_K8S_API_RBAC_V1_ROLEBINDINGLIST,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "RoleList",
        &IO_K8S_API_RBAC_V1_ROLELIST,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "DeviceClass",
        &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASS,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "DeviceClassList",
        &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICECLASSLIST,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "DeviceTaintRule",
        &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULE,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "DeviceTaintRuleList",
        &IO_K8S_API_RESOURCE_V1ALPHA3_DEVICETAINTRULELIST,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "ResourceClaim",
        &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIM,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "ResourceClaimList",
        &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMLIST,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "ResourceClaimTemplate",
        &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMTEMPLATE,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "ResourceClaimTemplateList",
        &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCECLAIMTEMPLATELIST,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "ResourceSlice",
        &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCESLICE,
    ),
    (
        "resource.k8s.io",
        "v1alpha3",
        "ResourceSliceList",
        &IO_K8S_API_RESOURCE_V1ALPHA3_RESOURCESLICELIST,
    ),
    (
        "resource.k8s.io",
        "v1beta1",
        "DeviceClass",
        &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASS,
    ),
    (
        "resource.k8s.io",
        "v1beta1",
        "DeviceClassList",
        &IO_K8S_API_RESOURCE_V1BETA1_DEVICECLASSLIST,
    ),
    (
        "resource.k8s.io",
        "v1beta1",
        "ResourceClaim",
        &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIM,
    ),
    (
        "resource.k8s.io",
        "v1beta1",
        "ResourceClaimList",
        &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMLIST,
    ),
    (
        "resource.k8s.io",
        "v1beta1",
        "ResourceClaimTemplate",
        &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATE,
    ),
    (
        "resource.k8s.io",
        "v1beta1",
        "ResourceClaimTemplateList",
        &IO_K8S_API_RESOURCE_V1BETA1_RESOURCECLAIMTEMPLATELIST,
    ),
    (
        "resource.k8s.io",
        "v1beta1",
        "ResourceSlice",
        &IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICE,
    ),
    (
        "resource.k8s.io",
        "v1beta1",
        "ResourceSliceList",
        &IO_K8S_API_RESOURCE_V1BETA1_RESOURCESLICELIST,
    ),
    (
        "resource.k8s.io",
        "v1beta2",
        "DeviceClass",
        &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASS,
    ),
    (
        "resource.k8s.io",
        "v1beta2",
        "DeviceClassList",
        &IO_K8S_API_RESOURCE_V1BETA2_DEVICECLASSLIST,
    ),
    (
        "resource.k8s.io",
        "v1beta2",
        "ResourceClaim",
        &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIM,
    ),
    (
        "resource.k8s.io",
        "v1beta2",
        "ResourceClaimList",
        &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMLIST,
    ),
    (
        "resource.k8s.io",
        "v1beta2",
        "ResourceClaimTemplate",
        &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATE,
    ),
    (
        "resource.k8s.io",
        "v1beta2",
        "ResourceClaimTemplateList",
        &IO_K8S_API_RESOURCE_V1BETA2_RESOURCECLAIMTEMPLATELIST,
    ),
    (
        "resource.k8s.io",
        "v1beta2",
        "ResourceSlice",
        &IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICE,
    ),
    (
        "resource.k8s.io",
        "v1beta2",
        "ResourceSliceList",
        &IO_K8S_API_RESOURCE_V1BETA2_RESOURCESLICELIST,
    ),
    (
        "scheduling.k8s.io",
        "v1",
        "PriorityClass",
        &IO_K8S_API_SCHEDULING_V1_PRIORITYCLASS,
    ),
    (
        "scheduling.k8s.io",
        "v1",
        "PriorityClassList",
        &IO_K8S_API_SCHEDULING_V1_PRIORITYCLASSLIST,
    ),
    (
        "storage.k8s.io",
        "v1",
        "CSIDriver",
        &IO_K8S_API_STORAGE_V1_CSIDRIVER,
    ),
    (
        "storage.k8s.io",
        "v1",
        "CSIDriverList",
        &IO_K8S_API_STORAGE_V1_CSIDRIVERLIST,
    ),
    (
        "storage.k8s.io",
        "v1",
        "CSINode",
        &IO_K8S_API_STORAGE_V1_CSINODE,
    ),
    (
        "storage.k8s.io",
        "v1",
        "CSINodeList",
        &IO_K8S_API_STORAGE_V1_CSINODELIST,
    ),
    (
        "storage.k8s.io",
        "v1",
        "CSIStorageCapacity",
        &IO_K8S_API_STORAGE_V1_CSISTORAGECAPACITY,
    ),
    (
        "storage.k8s.io",
        "v1",
        "CSIStorageCapacityList",
        &IO_K8S_API_STORAGE_V1_CSISTORAGECAPACITYLIST,
    ),
    (
        "storage.k8s.io",
        "v1",
        "StorageClass",
        &IO_K8S_API_STORAGE_V1_STORAGECLASS,
    ),
    (
        "storage.k8s.io",
        "v1",
        "StorageClassList",
        &IO_K8S_API_STORAGE_V1_STORAGECLASSLIST,
    ),
    (
        "storage.k8s.io",
        "v1",
        "VolumeAttachment",
        &IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENT,
    ),
    (
        "storage.k8s.io",
        "v1",
        "VolumeAttachmentList",
        &IO_K8S_API_STORAGE_V1_VOLUMEATTACHMENTLIST,
    ),
    (
        "storage.k8s.io",
        "v1alpha1",
        "VolumeAttributesClass",
        &IO_K8S_API_STORAGE_V1ALPHA1_VOLUMEATTRIBUTESCLASS,
    ),
    (
        "storage.k8s.io",
        "v1alpha1",
        "VolumeAttributesClassList",
        &IO_K8S_API_STORAGE_V1ALPHA1_VOLUMEATTRIBUTESCLASSLIST,
    ),
    (
        "storage.k8s.io",
        "v1beta1",
        "VolumeAttributesClass",
        &IO_K8S_API_STORAGE_V1BETA1_VOLUMEATTRIBUTESCLASS,
    ),
    (
        "storage.k8s.io",
        "v1beta1",
        "VolumeAttributesClassList",
        &IO_K8S_API_STORAGE_V1BETA1_VOLUMEATTRIBUTESCLASSLIST,
    ),
    (
        "storagemigration.k8s.io",
        "v1alpha1",
        "StorageVersionMigration",
        &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATION,
    ),
    (
        "storagemigration.k8s.io",
        "v1alpha1",
        "StorageVersionMigrationList",
        &IO_K8S_API_STORAGEMIGRATION_V1ALPHA1_STORAGEVERSIONMIGRATIONLIST,
    ),
];
